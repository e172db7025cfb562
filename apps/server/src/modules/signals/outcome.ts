// What a broker call's result or failure means for the sender, the signal row and the credit.
import { isBrokerError } from '@router/brokers';
import type { OrderResponse } from '@router/orders';
import { accepted, pending, refusal } from './answers.ts';
import type { Answer } from './types.ts';

export interface Outcome {
  answer: Answer;
  status: string;
  brokerOrderId: string | null;
  price: number | null;
  releaseCredit: boolean;
  /** The broker refused the connection's credentials (withBrokerSession deactivated it). */
  connectorRejected?: boolean;
}

export function fromResult(signalId: string, title: string, result: OrderResponse): Outcome {
  const brokerOrderId = result.id || null;
  const price = typeof result.price === 'number' && Number.isFinite(result.price) ? result.price : null;
  if (result.status === 'rejected') {
    const reason = result.status_description || 'order rejected';
    return {
      answer: refusal(400, 'ExecutionError', reason.startsWith(`${title}:`) ? reason : `${title}: ${reason}`),
      status: 'rejected',
      brokerOrderId,
      price,
      releaseCredit: true,
    };
  }
  return {
    answer: accepted(signalId, result),
    status: result.status,
    brokerOrderId,
    price,
    releaseCredit: false,
  };
}

/**
 * A refusal the broker gave for sure costs nothing and answers 400; anything that may have
 * reached the broker (timeout, dropped connection, a duplicate client order id, an unexpected
 * throw) stays 'unknown' with its credit held, answered 'accepted', and is reconciled by
 * client order id later.
 */
export function fromError(signalId: string, title: string, error: unknown): Outcome {
  if (isBrokerError(error) && !error.outcomeUnknown && error.kind !== 'DuplicateOrder') {
    const auth = error.kind === 'AuthenticationError';
    return {
      answer: refusal(400, auth ? 'AuthenticationError' : 'ExecutionError', error.message),
      status: 'rejected',
      brokerOrderId: null,
      price: null,
      releaseCredit: true,
      connectorRejected: auth,
    };
  }
  return {
    answer: pending(signalId, title),
    status: 'unknown',
    brokerOrderId: null,
    price: null,
    releaseCredit: false,
  };
}
