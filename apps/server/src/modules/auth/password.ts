// Password hashing (argon2id, OWASP parameters) and the SPEC §5 strength rule (zxcvbn-ts).
import { hash, verify } from '@node-rs/argon2';
import { MESSAGES, PASSWORD_MIN_SCORE } from '@router/shared';
import { AppError } from '../../errors.ts';
import { estimatePassword } from './password-strength.ts';

// The library's default algorithm is argon2id; the const enum cannot be imported under isolatedModules.
const ARGON2 = { memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2);
}

// Verified against when the email is unknown, so both answers take an argon2 verification.
let dummyHash: Promise<string> | undefined;

/** False for a wrong password or no hash (social-only account), in similar time. */
export async function verifyPassword(passwordHash: string | null | undefined, password: string): Promise<boolean> {
  if (!passwordHash) {
    dummyHash ??= hashPassword('not a real password, only spends time');
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  return verify(passwordHash, password).catch(() => false);
}

export async function assertStrongPassword(password: string, field = 'password'): Promise<void> {
  if ((await estimatePassword(password)) <= PASSWORD_MIN_SCORE)
    throw new AppError('VALIDATION', MESSAGES.weakPassword, { field });
}
