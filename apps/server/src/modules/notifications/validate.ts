// SPEC §5 notification rules: push and SMS refused, email and http(s) URL validated, live
// accounts only. Outbound webhooks to private or loopback hosts are refused unless
// ALLOW_PRIVATE_WEBHOOKS (delivery checks resolved addresses again).
import { isIP } from 'node:net';
import { NOTIFICATION_MESSAGES, NOTIFICATION_TYPE, notificationMetadataSchema } from '@router/shared';
import type { NotificationMetadata } from '../../db/repositories/notifications.repository.ts';
import type { StoredBrokerAccount } from '../../db/schema/index.ts';
import { AppError } from '../../errors.ts';

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

/** Demo connectors and demo accounts cannot have notifications (SPEC §2, §5). */
export function checkLive(isDemo: boolean, account: StoredBrokerAccount | undefined): void {
  if (isDemo || account?.demo) throw new AppError('VALIDATION', NOTIFICATION_MESSAGES.liveOnly);
}

const PRIVATE_V4 = [
  /^10\./,
  /^127\./,
  /^0\./,
  /^169\.254\./,
  /^192\.168\./,
  /^172\.(1[6-9]|2\d|3[01])\./,
  /^100\.(6[4-9]|[7-9]\d|1[01]\d|12[0-7])\./,
];

export function isPrivateHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.local') || host.endsWith('.internal')) {
    return true;
  }
  const version = isIP(host);
  if (version === 4) return PRIVATE_V4.some((range) => range.test(host));
  if (version === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(host)?.[1];
    if (mapped) return isPrivateHost(mapped);
    return host === '::1' || host === '::' || /^f[cd]/.test(host) || /^fe[89ab]/.test(host);
  }
  return false;
}

/** `metadata` (a JSON string) validated for `type`: {email} or {url}. */
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
  if (metadata.url && !allowPrivate && isPrivateHost(new URL(metadata.url).hostname)) {
    throw invalid(NOTIFICATION_MESSAGES.invalidUrl, 'url');
  }
  return metadata;
}
