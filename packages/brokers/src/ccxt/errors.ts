// ccxt's exceptions mapped to the broker error kinds, with the exchange's own message shown as
// "<Title>: <message>". ccxt puts the raw answer in its messages ("kraken {\"error\":[...]}"):
// each adapter reads its exchange's message out of that body.

import { BrokerError, type BrokerErrorKind, isBrokerError } from '../core/errors.ts';
import { type ExceptionTable, matchException } from '../core/exceptions.ts';
import { isInconclusiveStatus, isUndecidedStatus, kindForStatus } from '../core/http.ts';
import { isCcxtError } from './ccxt-module.ts';
import type { LastAnswer } from './exchange.ts';

/** Reads the exchange's message out of its parsed error body (or undefined); `path`: the call answered. */
export type MessageReader = (body: unknown, path?: string) => string | undefined;

export interface ErrorMapping {
  title: string;
  /** ccxt's id of the exchange, which starts most of its messages. */
  exchangeId: string;
  readMessage: MessageReader;
  /** The descriptor's table of the exchange's messages (a repeated client order id counts on submissions only). */
  exceptions?: ExceptionTable;
}

const MAX_LENGTH = 300;

/** The JSON body inside a ccxt message, if any: `kraken {"error":[...]}`, `bitmex POST url 400 {...}`. */
export function bodyOf(message: string): unknown {
  const start = message.search(/[[{]/);
  if (start < 0) return undefined;
  try {
    return JSON.parse(message.slice(start)) as unknown;
  } catch {
    return undefined;
  }
}

/** The exchange's words, else ccxt's message without the exchange id in front. */
function exchangeMessage(error: Error, readMessage: MessageReader, exchangeId: string, path?: string): string {
  const fromBody = readMessage(bodyOf(error.message), path);
  const prefix = `${exchangeId} `;
  const text =
    fromBody ?? (error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message).trim();
  // ccxt's HTTP errors: "GET https://host/path 401 Unauthorized <body>" → "401 Unauthorized <body>",
  // without the body when it is an error page (a proxy's or a CDN's HTML says nothing to show).
  const http = /^(?:GET|POST|PUT|PATCH|DELETE) \S+ (\d{3} .*)$/s.exec(text);
  const answer = http?.[1] ?? text;
  const page = answer.search(/<(!doctype\s+html|html|head|body)[\s>]/i);
  const shown = page >= 0 ? answer.slice(0, page) : answer;
  const clean = shown.trim() || 'request failed';
  return clean.length > MAX_LENGTH ? `${clean.slice(0, MAX_LENGTH)}…` : clean;
}

function kindOf(error: Error): BrokerErrorKind | 'network' | undefined {
  if (isCcxtError(error, 'DuplicateOrderId')) return 'DuplicateOrder';
  if (isCcxtError(error, 'InsufficientFunds')) return 'InsufficientFunds';
  if (isCcxtError(error, 'OrderNotFound')) return 'OrderNotFound';
  if (isCcxtError(error, 'InvalidOrder') || isCcxtError(error, 'BadSymbol') || isCcxtError(error, 'BadRequest'))
    return 'InvalidOrder';
  if (isCcxtError(error, 'AuthenticationError') || isCcxtError(error, 'PermissionDenied')) return 'AuthenticationError';
  // RateLimitExceeded and DDoSProtection are NetworkErrors in ccxt: test them first.
  if (isCcxtError(error, 'RateLimitExceeded') || isCcxtError(error, 'DDoSProtection')) return 'RateLimited';
  if (isCcxtError(error, 'ExchangeNotAvailable') || isCcxtError(error, 'NetworkError')) return 'network';
  // The exchange failed to process the call or its answer could not be read (OperationFailed,
  // BadResponse: WOO's -1000 "An unknown error occurred while processing the request"): no
  // refusal; after a submission the order may stand.
  if (isCcxtError(error, 'OperationFailed')) return 'network';
  return undefined;
}

/**
 * A BrokerError for anything a ccxt call threw. `submission`: the call could have placed an
 * order, so a lost answer leaves the outcome unknown. `onOrder`: the call acts on one order
 * (placing or canceling it), so a permission refused refuses that order only.
 */
export function toBrokerError(
  error: unknown,
  mapping: ErrorMapping,
  submission = false,
  answer?: LastAnswer,
  onOrder = submission,
): BrokerError {
  if (isBrokerError(error)) return error;
  const { title } = mapping;
  if (!(error instanceof Error)) return new BrokerError('BrokerUnavailable', title, String(error));
  const status = answer?.status;
  const message = exchangeMessage(error, mapping.readMessage, mapping.exchangeId, answer?.path);
  // A 401/403 page or empty answer (a CDN's, a firewall's) is no refusal of the keys: an outage,
  // which keeps the connection (as core/http.ts reads it).
  if (answer?.page && (isCcxtError(error, 'AuthenticationError') || isCcxtError(error, 'PermissionDenied')))
    return new BrokerError('BrokerUnavailable', title, `HTTP ${answer.status}`, {
      cause: error,
      outcomeUnknown: submission,
    });
  const named = matchException(mapping.exceptions, message);
  if (submission && named === 'DuplicateOrder')
    return new BrokerError('DuplicateOrder', title, message, { cause: error });
  // A permission refused on an order or its cancel (a key without trade rights, a product or an
  // account that may not trade it) refuses that order: the keys themselves are refused as ccxt's
  // AuthenticationError proper, or by the table, and only those deactivate the connection.
  if (onOrder && named === undefined && isCcxtError(error, 'PermissionDenied'))
    return new BrokerError('InvalidOrder', title, message, { cause: error });
  // The table names the kind, the status whether the exchange decided (core/http.ts
  // isUndecidedStatus): its words on a 5xx or an inconclusive 4xx leave a submission's outcome unknown.
  if (named && named !== 'DuplicateOrder' && status !== undefined && isUndecidedStatus(status))
    return new BrokerError(kindForStatus(named, status), title, message, { cause: error, outcomeUnknown: submission });
  // The table is this exchange's own knowledge: it wins over ccxt's generic classes. A gateway's
  // 408, 409, 421, 425 or 499 (core/http.ts) proves no refusal, whatever class ccxt gave it.
  const kind =
    (named === 'DuplicateOrder' ? undefined : named) ??
    (status !== undefined && isInconclusiveStatus(status) ? 'network' : undefined) ??
    kindOf(error) ??
    (status !== undefined && status >= 500 ? 'network' : undefined);
  if (kind === 'network' || kind === undefined) {
    // Unclassified exchange errors (ccxt's ExchangeError) are refusals, not lost answers.
    if (kind === undefined) return new BrokerError('InvalidOrder', title, message, { cause: error });
    const said = mapping.readMessage(bodyOf(error.message), answer?.path);
    const text = said ?? (isCcxtError(error, 'RequestTimeout') ? 'no answer in time' : 'exchange unavailable');
    return new BrokerError('BrokerUnavailable', title, text, { cause: error, outcomeUnknown: submission });
  }
  return new BrokerError(kind, title, message, { cause: error });
}
