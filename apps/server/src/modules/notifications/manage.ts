// notificationCreate/Update/Delete, notification, notifications(connectorKey, accountId): the
// settings of SPEC §3 Notification. A webhook setting gets a Standard Webhooks secret, returned
// once (creation, rotation) and sealed at rest.
import { NOTIFICATION_TYPE } from '@router/shared';
import { newKey } from '../../crypto/random.ts';
import {
  deleteNotificationRow,
  dropUnwantedDeliveries,
  findNotification,
  listNotifications as listNotificationRows,
  type NotificationView,
  updateNotificationMetadata,
  upsertNotification,
} from '../../db/repositories/notifications.repository.ts';
import { findUserById } from '../../db/repositories/user.repository.ts';
import { AppError } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { type Actor, requireConnector } from '../connectors/index.ts';
import { newWebhookSecret, sealWebhookSecret } from './secret.ts';
import { checkLive, parseMetadata } from './validate.ts';

export const NOTIFICATION_NOT_FOUND = 'Notification not found';
export const EMAIL_OWN_ADDRESS_ONLY =
  "An administrator acting as the user can send email notifications only to the account's own address";

/**
 * FORBIDDEN unless `email` is the account's own address: what an administrator acting as the user
 * may name. Another address would go on receiving the user's orders, fills and refusals after the
 * proxy ended, as a webhook's URL would (which only the owner sets).
 */
export async function requireOwnEmail(services: Services, actor: Actor, email: string | undefined): Promise<void> {
  const user = await findUserById(services.db, actor.userId);
  if (!email || !user || email.toLowerCase() !== user.email.toLowerCase()) {
    throw new AppError('FORBIDDEN', EMAIL_OWN_ADDRESS_ONLY);
  }
}

/** A setting as answered: `secret` only right after it was made (creation, rotation). */
export type NotificationAnswer = NotificationView & { secret?: string | null };

export async function requireNotification(services: Services, actor: Actor, key: string): Promise<NotificationView> {
  const row = key ? await findNotification(services.db, actor.userId, key) : undefined;
  if (!row) throw new AppError('NOT_FOUND', NOTIFICATION_NOT_FOUND, { field: 'key' });
  return row;
}

export interface NotificationInput {
  connectorKey: string;
  accountId: string;
  type: number;
  /** JSON: {email} for EMAIL, {url} for HOOK; `events` optional. */
  metadata: string;
}

/**
 * Creates the account's notification of this type, or updates it when it exists. A new webhook
 * setting answers its secret (a setting that already had one answers null: it is not shown twice).
 * `onEmail` runs before an email setting is saved with its address (the resolver limits an
 * administrator acting as the user to the account's own: requireOwnEmail).
 */
export async function createNotification(
  services: Services,
  actor: Actor,
  input: NotificationInput,
  onEmail?: (email: string | undefined) => Promise<void>,
): Promise<NotificationAnswer> {
  const connector = await requireConnector(services, actor.userId, input.connectorKey);
  const account = connector.accounts.find((a) => a.id === input.accountId);
  if (!account) throw new AppError('VALIDATION', 'Account not found on this connector', { field: 'accountId' });
  const metadata = parseMetadata(input.type, input.metadata, services.config.ALLOW_PRIVATE_WEBHOOKS);
  checkLive(connector.providerName, connector.isDemo, account);
  if (input.type === NOTIFICATION_TYPE.EMAIL) await onEmail?.(metadata.email);
  const setting = { connectorId: connector.id, accountId: account.id, type: input.type };
  const secret = input.type === NOTIFICATION_TYPE.HOOK ? newWebhookSecret() : null;
  // An existing setting updated: what it no longer asks for is not sent (dropUnwantedDeliveries).
  const { key, secretStored } = await services.db.transaction(async (tx) => {
    const stored = await upsertNotification(
      tx,
      { key: newKey(), userId: actor.userId, ...setting, metadata },
      secret ? sealWebhookSecret(services.secretsKey, setting, secret) : null,
    );
    await dropUnwantedDeliveries(tx, stored.id, metadata.events);
    return stored;
  });
  return { ...(await requireNotification(services, actor, key)), secret: secretStored ? secret : null };
}

function keepHiddenUrl(metadataJson: string, hidden: unknown, stored: string): string {
  try {
    const parsed: unknown = JSON.parse(metadataJson);
    if (typeof parsed !== 'object' || parsed === null || !('url' in parsed) || parsed.url !== hidden) {
      return metadataJson;
    }
    return JSON.stringify({ ...parsed, url: stored });
  } catch {
    return metadataJson;
  }
}

/**
 * `onWebhookUrlChange` runs before a webhook setting gets another URL (the resolver refuses it to
 * anyone but the owner's dashboard session, as it refuses creating one). With `hiddenUrl` (how
 * the URL was shown, admin proxy mode) that text sent back keeps the stored URL. `onEmailChange`
 * runs before an email setting gets another address.
 */
export async function updateNotification(
  services: Services,
  actor: Actor,
  key: string,
  metadataJson: string,
  onWebhookUrlChange?: () => void,
  hiddenUrl?: (url: string) => unknown,
  onEmailChange?: (email: string | undefined) => Promise<void>,
): Promise<NotificationView> {
  const row = await requireNotification(services, actor, key);
  // The URL as it was shown hidden (admin proxy mode), sent back unchanged, is the stored one.
  if (hiddenUrl && row.type === NOTIFICATION_TYPE.HOOK && row.metadata.url) {
    metadataJson = keepHiddenUrl(metadataJson, hiddenUrl(row.metadata.url), row.metadata.url);
  }
  // The rules notificationCreate checks, again: the account may since have left the connector or
  // become a demo one (a reconnect), and saving must not revive a setting it could not create.
  const connector = await requireConnector(services, actor.userId, row.connectorKey);
  const account = connector.accounts.find((a) => a.id === row.accountId);
  if (!account) throw new AppError('VALIDATION', 'Account not found on this connector', { field: 'accountId' });
  const metadata = parseMetadata(row.type, metadataJson, services.config.ALLOW_PRIVATE_WEBHOOKS);
  checkLive(connector.providerName, connector.isDemo, account);
  if (row.type === NOTIFICATION_TYPE.HOOK && metadata.url !== row.metadata.url) onWebhookUrlChange?.();
  if (row.type === NOTIFICATION_TYPE.EMAIL && metadata.email?.toLowerCase() !== row.metadata.email?.toLowerCase()) {
    await onEmailChange?.(metadata.email);
  }
  // Waiting deliveries follow the setting to its new URL or address (they are what it asked to be
  // told); those of events it no longer asks for are given up.
  await services.db.transaction(async (tx) => {
    await updateNotificationMetadata(tx, row.id, metadata);
    await dropUnwantedDeliveries(tx, row.id, metadata.events);
  });
  return { ...row, metadata, isEnabled: true, disabledReason: null };
}

export async function deleteNotification(services: Services, actor: Actor, key: string): Promise<boolean> {
  const row = await requireNotification(services, actor, key);
  await deleteNotificationRow(services.db, row.id);
  return true;
}

export function getNotification(services: Services, actor: Actor, key: string): Promise<NotificationView> {
  return requireNotification(services, actor, key);
}

export async function listNotifications(
  services: Services,
  actor: Actor,
  connectorKey: string,
  accountId: string | null,
): Promise<NotificationView[]> {
  const connector = await requireConnector(services, actor.userId, connectorKey);
  return listNotificationRows(services.db, actor.userId, connector.id, accountId || null);
}
