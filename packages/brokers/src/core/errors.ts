// Broker failures mapped to a small typed set; shown to users as "<Broker title>: <message>".

export const BROKER_ERROR_KINDS = [
  'InvalidOrder',
  'InsufficientFunds',
  'AuthenticationError',
  'RateLimited',
  'BrokerUnavailable',
  'OrderNotFound',
  'DuplicateOrder',
] as const;
export type BrokerErrorKind = (typeof BROKER_ERROR_KINDS)[number];

export class BrokerError extends Error {
  override readonly name = 'BrokerError';
  readonly kind: BrokerErrorKind;
  /** The broker's title, prefixed to the message shown to users. */
  readonly brokerTitle: string;
  readonly brokerMessage: string;

  constructor(
    kind: BrokerErrorKind,
    brokerTitle: string,
    brokerMessage: string,
    options?: { cause?: unknown; outcomeUnknown?: boolean },
  ) {
    super(`${brokerTitle}: ${brokerMessage}`, options);
    this.kind = kind;
    this.brokerTitle = brokerTitle;
    this.brokerMessage = brokerMessage;
    this.outcomeUnknown = options?.outcomeUnknown ?? false;
  }

  /** True when an order may have reached the broker anyway (timeout, dropped connection). */
  readonly outcomeUnknown: boolean;
}

export function isBrokerError(error: unknown): error is BrokerError {
  return error instanceof BrokerError;
}
