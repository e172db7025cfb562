// Second-factor recovery codes: ten one-time codes, shown once (at activation, or when the user
// asks for new ones), kept as HMAC-SHA-256 under a key derived from SECRETS_KEY, so a copy of
// the table alone cannot be searched for them. A code is spent by one conditional UPDATE.
import { createHmac } from 'node:crypto';
import {
  formatRecoveryCode,
  normalizeRecoveryCode,
  RECOVERY_CODE_ALPHABET,
  RECOVERY_CODE_COUNT,
  RECOVERY_CODE_LENGTH,
} from '@router/shared';
import { deriveKey } from '../../crypto/derive.ts';
import { randomCode } from '../../crypto/random.ts';
import type { Executor } from '../../db/repositories/executor.ts';
import {
  countUnusedRecoveryCodes,
  recoveryCodesStamp,
  replaceRecoveryCodes,
  useRecoveryCode,
} from '../../db/repositories/recovery-code.repository.ts';
import { AppError } from '../../errors.ts';
import type { Services } from '../../services.ts';

function hashCode(services: Services, userId: number, code: string): string {
  const key = deriveKey(services.secretsKey, 'recovery-codes');
  return createHmac('sha256', key)
    .update(`${userId}:${normalizeRecoveryCode(code)}`)
    .digest('base64url');
}

const newCode = (): string => randomCode(RECOVERY_CODE_ALPHABET, RECOVERY_CODE_LENGTH);

export const RECOVERY_CODES_REPLACED = 'Your recovery codes were just replaced elsewhere; reload the page to see them';

/** Which set of codes the user holds now, for `issueRecoveryCodes`' `stamp`. */
export const currentRecoveryCodes = (services: Services, userId: number): Promise<number> =>
  recoveryCodesStamp(services.db, userId);

/**
 * Replaces the user's codes with ten new ones and returns them (`xxxx-xxxx-xxxx`), this once.
 * `db`: an open transaction they are replaced in, when given. `stamp`: the set the caller saw
 * (currentRecoveryCodes): if another replacement came first, VALIDATION and nothing changes, so
 * of two at once one wins and no answer shows codes that no longer work.
 */
export async function issueRecoveryCodes(
  services: Services,
  userId: number,
  db: Executor = services.db,
  stamp?: number,
): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newCode);
  const hashes = codes.map((code) => hashCode(services, userId, code));
  if (!(await replaceRecoveryCodes(db, userId, hashes, stamp))) {
    throw new AppError('VALIDATION', RECOVERY_CODES_REPLACED);
  }
  return codes.map(formatRecoveryCode);
}

/** Spends a code: true once per code, false for an unknown or used one. `db`: an open transaction, if any. */
export function spendRecoveryCode(
  services: Services,
  userId: number,
  code: string,
  db: Executor = services.db,
): Promise<boolean> {
  return useRecoveryCode(db, userId, hashCode(services, userId, code));
}

export function recoveryCodesLeft(services: Services, userId: number): Promise<number> {
  return countUnusedRecoveryCodes(services.db, userId);
}
