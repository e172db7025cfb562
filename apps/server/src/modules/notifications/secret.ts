// A webhook setting's Standard Webhooks secret: `whsec_` + base64 of 32 random bytes, shown to
// the user once and kept sealed (AES-256-GCM under SECRETS_KEY, bound to the setting's
// connector, account and type). After a rotation the previous secret keeps signing, beside the
// new one, for a day, so receivers can switch without losing messages.
import { randomBytes } from 'node:crypto';
import { openSecrets, sealSecrets } from '../../crypto/secrets.ts';
import type { SealedSecret } from '../../db/repositories/notifications.repository.ts';

export const SECRET_PREFIX = 'whsec_';
/** How long the previous secret still signs after a rotation. */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

export interface SettingIdentity {
  connectorId: number;
  accountId: string;
  type: number;
}

const aad = (s: SettingIdentity) => `notification/${s.connectorId}/${s.accountId}/${s.type}`;

export function newWebhookSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

export function sealWebhookSecret(
  key: Buffer,
  setting: SettingIdentity,
  current: string,
  previous?: string,
): SealedSecret {
  return sealSecrets(key, aad(setting), previous ? { current, previous } : { current });
}

/** The secrets to sign with now: the current one, and the previous one within the overlap. */
export function signingSecrets(
  key: Buffer,
  setting: SettingIdentity,
  sealed: SealedSecret,
  rotatedAt: Date | null,
  now: number = Date.now(),
): string[] {
  const { current, previous } = openSecrets(key, aad(setting), sealed);
  if (!current) return [];
  const overlap = previous && rotatedAt && now - rotatedAt.getTime() < ROTATION_OVERLAP_MS;
  return overlap ? [current, previous] : [current];
}

/** The current secret (to keep as the previous one when rotating). */
export function currentSecret(key: Buffer, setting: SettingIdentity, sealed: SealedSecret): string | undefined {
  return openSecrets(key, aad(setting), sealed).current;
}

/** The same secrets bound to the setting's new identity (its account taken over by another connector). */
export function resealWebhookSecret(
  key: Buffer,
  from: SettingIdentity,
  to: SettingIdentity,
  sealed: SealedSecret,
): SealedSecret {
  return sealSecrets(key, aad(to), openSecrets(key, aad(from), sealed));
}
