// The shape of a second-factor recovery code, apart from security.ts so that auth.ts (sign-in
// and reset inputs) can accept one too without an import cycle. security.ts re-exports it.

/** Ten one-time codes, shown once. */
export const RECOVERY_CODE_COUNT = 10;
/** 12 characters of a 32-letter alphabet (60 bits), shown as `xxxx-xxxx-xxxx`. */
export const RECOVERY_CODE_LENGTH = 12;
/** Lower-case letters and digits without the look-alikes l, o, 0 and 1. */
export const RECOVERY_CODE_ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';

export const RECOVERY_CODE_INVALID = 'The recovery code is not valid';

/** The canonical form of a typed recovery code: lower case, no spaces or dashes. */
export function normalizeRecoveryCode(input: string): string {
  return input.toLowerCase().replace(/[\s-]/g, '');
}

/** `abcd-efgh-jkmn` from `abcdefghjkmn`. */
export function formatRecoveryCode(code: string): string {
  return code.match(/.{1,4}/g)?.join('-') ?? code;
}

const RECOVERY_PATTERN = new RegExp(`^[${RECOVERY_CODE_ALPHABET}]{${RECOVERY_CODE_LENGTH}}$`);

export function isRecoveryCode(input: string): boolean {
  return RECOVERY_PATTERN.test(normalizeRecoveryCode(input));
}
