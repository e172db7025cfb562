// Password hashing (argon2id, OWASP parameters) and the SPEC §5 strength rule (zxcvbn-ts).
import { hash, verify } from '@node-rs/argon2';
import { MESSAGES, PASSWORD_MIN_SCORE } from '@router/shared';
import type { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { AppError } from '../../errors.ts';

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

// The dictionaries weigh ~35 MB in memory: loaded on the first estimate, not at server start.
let zxcvbn: Promise<ZxcvbnFactory> | undefined;

function loadZxcvbn(): Promise<ZxcvbnFactory> {
  zxcvbn ??= (async () => {
    const [{ ZxcvbnFactory }, common, english] = await Promise.all([
      import('@zxcvbn-ts/core'),
      import('@zxcvbn-ts/language-common'),
      import('@zxcvbn-ts/language-en'),
    ]);
    return new ZxcvbnFactory({
      dictionary: { ...common.dictionary, ...english.dictionary },
      graphs: common.adjacencyGraphs,
      translations: english.translations,
    });
  })();
  return zxcvbn;
}

/** zxcvbn guesses_log10 (SPEC §9: 0 to about 10+; a password must exceed 10). */
export async function estimatePassword(password: string): Promise<number> {
  if (!password) return 0;
  return (await loadZxcvbn()).check(password).guessesLog10;
}

export async function assertStrongPassword(password: string, field = 'password'): Promise<void> {
  if ((await estimatePassword(password)) <= PASSWORD_MIN_SCORE)
    throw new AppError('VALIDATION', MESSAGES.weakPassword, { field });
}
