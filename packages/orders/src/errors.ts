// The one error this package throws. The hook answers it as 400 {status: 'ValidationError', message}
// (SPEC §8), so the message always names the field and the reason.

export class OrderValidationError extends Error {
  override readonly name = 'OrderValidationError';
  readonly status = 'ValidationError' as const;

  /** The offending field as the sender wrote it: `limit_price`, `symbol[2]`, `legs[0].action`, `body`. */
  readonly field: string;

  /** `message` is the full text shown to the sender, e.g. `limit_price: unexpected "x" at position 5`. */
  constructor(field: string, message: string) {
    super(message);
    this.field = field;
  }
}

/** An order without a symbol (none, or a blank one): SPEC §8's sample 400 body, word for word. */
export const NO_SYMBOL = 'No symbol found';

export function isOrderValidationError(error: unknown): error is OrderValidationError {
  return error instanceof OrderValidationError;
}

/** A refusal of `field` for `reason`; `providerTitle` marks the provider's own limits (SPEC §8 prefix rule). */
export function refuse(field: string, reason: string, providerTitle?: string): OrderValidationError {
  const message = `${field}: ${reason}`;
  return new OrderValidationError(field, providerTitle ? `${providerTitle}: ${message}` : message);
}

/**
 * A character as a refusal quotes it: `"x"`, and past printable ASCII with its code as well,
 * `"\u200b" (U+200B)`: a zero-width space shows as nothing, a Cyrillic А as the A it is not.
 */
export function quoteCharacter(char: string): string {
  const code = char.codePointAt(0) ?? 0;
  const quoted = JSON.stringify(char);
  return code >= 0x20 && code < 0x7f ? quoted : `${quoted} (U+${code.toString(16).toUpperCase().padStart(4, '0')})`;
}
