// What the notifications panel does beyond the settings: rotate a webhook secret, send a test
// notification, read the delivery log of an account, send one delivery again.
import { NOTIFICATION_DELIVERY_LOG_SIZE, NOTIFICATION_TEST_EVENT, NOTIFICATION_TYPE } from '@router/shared';
import {
  type DeliveryLogRow,
  findDelivery,
  listDeliveries,
  resendDelivery,
} from '../../db/repositories/notification-deliveries.repository.ts';
import { insertTestEvent } from '../../db/repositories/notification-outbox.repository.ts';
import { findNotificationSecret, storeNotificationSecret } from '../../db/repositories/notifications.repository.ts';
import { AppError } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { type Actor, requireConnector } from '../connectors/index.ts';
import { type NotificationAnswer, requireNotification } from './manage.ts';
import { currentSecret, newWebhookSecret, sealWebhookSecret } from './secret.ts';

export const DELIVERY_NOT_FOUND = 'Delivery not found';

/**
 * A new secret for a webhook setting, answered once. The previous one keeps signing beside it
 * for a day (ROTATION_OVERLAP_MS), so a receiver can switch without missing a message.
 */
export async function rotateNotificationSecret(
  services: Services,
  actor: Actor,
  key: string,
): Promise<NotificationAnswer> {
  const row = await requireNotification(services, actor, key);
  if (row.type !== NOTIFICATION_TYPE.HOOK) {
    throw new AppError('VALIDATION', 'Only webhook notifications have a secret', { field: 'key' });
  }
  const setting = { connectorId: row.connectorId, accountId: row.accountId, type: row.type };
  const secret = newWebhookSecret();
  await services.db.transaction(async (tx) => {
    const sealed = await findNotificationSecret(tx, row.id);
    let previous: string | undefined;
    try {
      previous = sealed ? currentSecret(services.secretsKey, setting, sealed) : undefined;
    } catch {
      previous = undefined; // unreadable (another SECRETS_KEY): nothing to keep
    }
    await storeNotificationSecret(tx, row.id, sealWebhookSecret(services.secretsKey, setting, secret, previous));
  });
  return { ...row, secret };
}

/** Queues a test notification to one setting (whatever its events); answers its delivery. */
export async function sendTestNotification(services: Services, actor: Actor, key: string): Promise<DeliveryLogRow> {
  const row = await requireNotification(services, actor, key);
  const connector = await requireConnector(services, actor.userId, row.connectorKey);
  const id = await insertTestEvent(
    services.db,
    { id: row.id, userId: actor.userId, connectorId: row.connectorId, accountId: row.accountId },
    NOTIFICATION_TEST_EVENT,
    {
      message: 'This is a test notification.',
      connectorKey: connector.key,
      providerName: connector.providerName,
      accountId: row.accountId,
    },
  );
  return requireDelivery(services, actor, id);
}

async function requireDelivery(services: Services, actor: Actor, id: number): Promise<DeliveryLogRow> {
  const row = Number.isSafeInteger(id) ? await findDelivery(services.db, actor.userId, id) : undefined;
  if (!row) throw new AppError('NOT_FOUND', DELIVERY_NOT_FOUND, { field: 'id' });
  return row;
}

/** The newest deliveries (at most 50) of a connector account's settings. */
export async function listNotificationDeliveries(
  services: Services,
  actor: Actor,
  connectorKey: string,
  accountId: string,
): Promise<DeliveryLogRow[]> {
  const connector = await requireConnector(services, actor.userId, connectorKey);
  return listDeliveries(
    services.db,
    { userId: actor.userId, connectorId: connector.id, accountId },
    NOTIFICATION_DELIVERY_LOG_SIZE,
  );
}

/** Sends one delivery again: the same event and webhook-id, at the next poll. */
export async function resendNotificationDelivery(
  services: Services,
  actor: Actor,
  id: number,
): Promise<DeliveryLogRow> {
  if (!Number.isSafeInteger(id) || !(await resendDelivery(services.db, actor.userId, id))) {
    throw new AppError('NOT_FOUND', DELIVERY_NOT_FOUND, { field: 'id' });
  }
  return requireDelivery(services, actor, id);
}
