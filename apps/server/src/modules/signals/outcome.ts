// What a broker call's result or failure means for a sent signal: the move (place, reject, lose),
// the answer for the sender, the stored status and whether the credit goes back.
import { type BrokerError, isBrokerError } from '@router/brokers';
import type { OrderResponse } from '@router/orders';
import { brokerErrorCode } from '../connectors/broker-error.ts';
import { accepted, pending, refusal } from './answers.ts';
import { STORED } from './lifecycle.ts';
import type { Answer } from './types.ts';

export interface Outcome {
  event: 'place' | 'reject' | 'lose';
  answer: Answer;
  status: string;
  brokerOrderId: string | null;
  price: number | null;
  releaseCredit: boolean;
  /** The broker's message for an order it ended at once (canceled): order.rejected's reason. */
  message?: string;
  /** The broker refused the connection's credentials (withBrokerSession deactivated it). */
  connectorRejected?: boolean;
  /**
   * The broker refused for a passing reason (its rate limit, its outage before the order reached
   * it): nothing was placed, so the idempotency key goes free and a retry with it is placed.
   */
  freeKey?: boolean;
}

/** A refusal that asks for a retry (429, 503 by the one mapping), as against one that stands. */
const passing = (error: BrokerError) => ['RATE_LIMITED', 'UNAVAILABLE'].includes(brokerErrorCode(error));

export function fromResult(signalId: string, title: string, result: OrderResponse): Outcome {
  const brokerOrderId = result.id || null;
  const price = typeof result.price === 'number' && Number.isFinite(result.price) ? result.price : null;
  if (result.status === 'rejected') {
    const reason = result.status_description || 'order rejected';
    return {
      event: 'reject',
      answer: refusal(400, 'ExecutionError', reason.startsWith(`${title}:`) ? reason : `${title}: ${reason}`),
      status: STORED.rejected,
      brokerOrderId,
      price,
      releaseCredit: true,
    };
  }
  const ended = result.status === 'canceled' ? result.status_description || 'order canceled' : undefined;
  return {
    event: 'place',
    answer: accepted(signalId, result),
    status: result.status,
    brokerOrderId,
    price,
    releaseCredit: false,
    ...(ended !== undefined ? { message: ended.startsWith(`${title}:`) ? ended : `${title}: ${ended}` } : {}),
  };
}

/**
 * The hook's answer to a broker's certain refusal (SPEC §8: 400), placing or opening the session
 * alike: AuthenticationError when it refused the connection's credentials, else ExecutionError.
 */
function brokerRefused(error: BrokerError): Answer {
  const status = error.kind === 'AuthenticationError' ? 'AuthenticationError' : 'ExecutionError';
  return { ...refusal(400, status, error.message), brokerError: error };
}

/**
 * A refusal the broker gave for sure costs nothing and answers 400; anything that may have
 * reached the broker (timeout, dropped connection, a duplicate client order id, an unexpected
 * throw) is lost: 'unknown' with its credit held, answered 'accepted', reconciled later.
 */
export function fromError(signalId: string, title: string, error: unknown): Outcome {
  if (isBrokerError(error) && !error.outcomeUnknown && error.kind !== 'DuplicateOrder') {
    return {
      event: 'reject',
      answer: brokerRefused(error),
      status: STORED.rejected,
      brokerOrderId: null,
      price: null,
      releaseCredit: true,
      connectorRejected: error.kind === 'AuthenticationError',
      freeKey: passing(error),
    };
  }
  // An answer that named the broker's order id beside its failure: the signal keeps it, so that
  // reconciliation looks that very order up.
  return lost(signalId, title, (isBrokerError(error) && error.brokerOrderId) || null);
}

/** No answer from the broker (or none that decides): the order may be placed. */
export function lost(signalId: string, title: string, brokerOrderId: string | null = null): Outcome {
  return {
    event: 'lose',
    answer: pending(signalId, title),
    status: STORED.unknown,
    brokerOrderId,
    price: null,
    releaseCredit: false,
  };
}

/**
 * Refused before the order left (connector inactive, secrets unreadable, the broker refusing the
 * session's renewal): nothing was sent.
 */
export function notSent(refused: string | BrokerError): Outcome {
  return {
    event: 'reject',
    answer: typeof refused === 'string' ? refusal(400, 'ExecutionError', refused) : brokerRefused(refused),
    status: STORED.failed,
    brokerOrderId: null,
    price: null,
    releaseCredit: true,
  };
}
