// SPEC §5 notification rules: push and SMS refused, email and URL validated, live accounts only
// (and paper, issue #17). Webhook URLs (issue #17 point 5): https; no credentials in them; no
// private or loopback host. With ALLOW_PRIVATE_WEBHOOKS private hosts are allowed, and plain
// http too but only to localhost, 127.0.0.1 or [::1]. Deliveries check resolved addresses again.
import {
  NOTIFICATION_MESSAGES,
  NOTIFICATION_TYPE,
  notificationMetadataSchema,
  notificationsAllowed,
} from '@router/shared';
import type { NotificationMetadata } from '../../db/repositories/notifications.repository.ts';
import type { StoredBrokerAccount } from '../../db/schema/index.ts';
import { AppError } from '../../errors.ts';
import { isPrivateHostname } from './address-guard.ts';

function invalid(message: string, field: string): AppError {
  return new AppError('VALIDATION', message, { field });
}

export function checkType(type: number): void {
  if (type === NOTIFICATION_TYPE.PUSH || type === NOTIFICATION_TYPE.SMS) {
    throw invalid(NOTIFICATION_MESSAGES.notAvailable, 'type');
  }
  if (type !== NOTIFICATION_TYPE.EMAIL && type !== NOTIFICATION_TYPE.HOOK) {
    throw invalid(NOTIFICATION_MESSAGES.unknownType, 'type');
  }
}

/** Demo connectors and demo accounts cannot have notifications (SPEC §2, §5), paper ones can. */
export function checkLive(providerName: string, isDemo: boolean, account: StoredBrokerAccount | undefined): void {
  if (!notificationsAllowed(providerName, isDemo, account?.demo === true)) {
    throw new AppError('VALIDATION', NOTIFICATION_MESSAGES.liveOnly);
  }
}

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

function checkWebhookUrl(text: string, allowPrivate: boolean): void {
  const url = new URL(text);
  if (url.username || url.password) throw invalid(NOTIFICATION_MESSAGES.invalidUrl, 'url');
  if (!allowPrivate && isPrivateHostname(url.hostname)) throw invalid(NOTIFICATION_MESSAGES.invalidUrl, 'url');
  if (url.protocol === 'http:' && !(allowPrivate && LOOPBACK_NAMES.has(url.hostname))) {
    throw invalid(NOTIFICATION_MESSAGES.httpsOnly, 'url');
  }
}

/** `metadata` (a JSON string) validated for `type`: {email} or {url}, and `events`. */
export function parseMetadata(type: number, text: string, allowPrivate: boolean): NotificationMetadata {
  checkType(type);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = null;
  }
  const schema = notificationMetadataSchema(type);
  const parsed = schema?.safeParse(json && typeof json === 'object' ? json : {});
  if (!parsed?.success) {
    const issue = parsed?.error.issues[0];
    throw invalid(issue?.message ?? NOTIFICATION_MESSAGES.required, String(issue?.path[0] ?? 'metadata'));
  }
  const metadata: NotificationMetadata = parsed.data;
  if (metadata.url) checkWebhookUrl(metadata.url, allowPrivate);
  return metadata;
}
