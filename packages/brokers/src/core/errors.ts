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
    options?: { cause?: unknown; outcomeUnknown?: boolean; retryAfter?: string; brokerOrderId?: string },
  ) {
    super(`${brokerTitle}: ${brokerMessage}`, options);
    this.kind = kind;
    this.brokerTitle = brokerTitle;
    this.brokerMessage = brokerMessage;
    this.outcomeUnknown = options?.outcomeUnknown ?? false;
    this.retryAfter = options?.retryAfter;
    this.brokerOrderId = options?.brokerOrderId;
  }

  /** True when an order may have reached the broker anyway (timeout, dropped connection). */
  readonly outcomeUnknown: boolean;

  /** A rate limit's Retry-After as the broker said it (seconds or an HTTP date), if it said one. */
  readonly retryAfter: string | undefined;

  /**
   * The broker's id of the order an unknown outcome concerns, when its answer named one (an
   * error beside an order id): kept on the signal, so that reconciliation looks that order up.
   */
  readonly brokerOrderId: string | undefined;
}

export function isBrokerError(error: unknown): error is BrokerError {
  return error instanceof BrokerError;
}

/**
 * A call naming an account the connection does not bring (one left out at the broker's consent or
 * closed there, found at a renewal): that call is refused, never the connection. The credentials
 * were not refused, and an AuthenticationError deactivates the connection with all its other
 * accounts until the user reconnects.
 */
export function accountNotInConnection(brokerTitle: string, accountId: string): BrokerError {
  return new BrokerError('InvalidOrder', brokerTitle, `account ${accountId} is not part of this connection`);
}

/** Refuses (accountNotInConnection) a call naming an account outside `session.accounts`. */
export function checkAccountInConnection(
  brokerTitle: string,
  session: { accounts: ReadonlyArray<{ id: string }> },
  accountId: string,
): void {
  if (!session.accounts.some((account) => account.id === accountId))
    throw accountNotInConnection(brokerTitle, accountId);
}
