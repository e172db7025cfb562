// cTrader's refusals as our error kinds. They come as ProtoOAErrorRes (any request),
// ProtoOAOrderErrorEvent (an order, cancel or close that failed validation), ProtoErrorRes (the
// proxy itself) or an execution event ORDER_REJECTED / ORDER_CANCEL_REJECTED with an errorCode:
//   {"errorCode": "NOT_ENOUGH_MONEY", "description": "Not enough money"}  → "cTrader: Not enough money (NOT_ENOUGH_MONEY)"
// The descriptor's table maps the errorCode; anything else is an invalid order (cTrader acted on
// nothing). A refusal is a known outcome: nothing was placed; only a generic UNKNOWN_ERROR to what
// could change the account leaves it unknown.
import { BrokerError } from '../../core/errors.ts';
import { matchException } from '../../core/exceptions.ts';
import { decimalField, stringField } from '../../core/json-read.ts';
import { CTRADER_TITLE, ctraderDescriptor } from './descriptor.ts';
import type { WireMessage } from './protocol.ts';

const ERROR_MESSAGES = new Set(['ProtoOAErrorRes', 'ProtoOAOrderErrorEvent', 'ProtoErrorRes']);

export const EXECUTION = {
  ORDER_ACCEPTED: 2,
  ORDER_FILLED: 3,
  ORDER_REPLACED: 4,
  ORDER_CANCELLED: 5,
  ORDER_EXPIRED: 6,
  ORDER_REJECTED: 7,
  ORDER_CANCEL_REJECTED: 8,
  ORDER_PARTIAL_FILL: 11,
} as const;

/** True for a message that refuses what was asked. */
export function isRefusal(message: WireMessage): boolean {
  if (ERROR_MESSAGES.has(message.name)) return true;
  const type = decimalField(message.payload, 'executionType');
  return (
    message.name === 'ProtoOAExecutionEvent' &&
    (type === EXECUTION.ORDER_REJECTED || type === EXECUTION.ORDER_CANCEL_REJECTED)
  );
}

/** The error a refusal stands for; for any other unexpected answer, an unavailable broker. */
export function answerError(message: WireMessage, mutating = false): BrokerError {
  if (!isRefusal(message)) {
    return new BrokerError(
      'BrokerUnavailable',
      CTRADER_TITLE,
      `unexpected answer ${message.name || message.payloadType}`,
      {
        outcomeUnknown: mutating,
      },
    );
  }
  // A rejected execution without a code is still a rejection, not a failure of cTrader.
  const fallback = message.name === 'ProtoOAExecutionEvent' ? 'ORDER_REJECTED' : 'UNKNOWN_ERROR';
  const code = stringField(message.payload, 'errorCode') ?? fallback;
  const description = stringField(message.payload, 'description')?.trim();
  const retryAfter = decimalField(message.payload, 'retryAfter');
  // Maintenance names its end (ms): the trader is told when trading comes back.
  const maintenanceEnd = decimalField(message.payload, 'maintenanceEndTimestamp');
  const text = description ? `${description} (${code})` : code;
  const message_ =
    retryAfter !== undefined
      ? `${text}; retry after ${retryAfter} s`
      : maintenanceEnd !== undefined && Number.isFinite(new Date(maintenanceEnd).getTime())
        ? `${text}; until ${new Date(maintenanceEnd).toISOString()}`
        : text;
  const kind = matchException(ctraderDescriptor.exceptions, code) ?? 'InvalidOrder';
  // "Generic error" names no reason the request was refused: what was sent may have been acted on.
  // The wait cTrader asks for (WIRE.md §8) is the caller's Retry-After.
  return new BrokerError(kind, CTRADER_TITLE, message_, {
    outcomeUnknown: mutating && code === 'UNKNOWN_ERROR',
    ...(retryAfter !== undefined ? { retryAfter: String(Math.max(1, Math.ceil(retryAfter))) } : {}),
  });
}

/** Seconds cTrader asks to wait before the same request is accepted again, for a rate-limit refusal. */
export function rateLimitWait(message: WireMessage): number | undefined {
  if (!ERROR_MESSAGES.has(message.name)) return undefined;
  const code = stringField(message.payload, 'errorCode');
  if (code !== 'BLOCKED_PAYLOAD_TYPE' && code !== 'REQUEST_FREQUENCY_EXCEEDED') return undefined;
  return decimalField(message.payload, 'retryAfter') ?? 1;
}
