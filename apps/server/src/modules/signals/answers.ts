// The hook's answers (SPEC §8), in one place so the messages stay consistent.
import { isDeepStrictEqual } from 'node:util';
import { MAX_BODY_LENGTH, type OrderResponse } from '@router/orders';
import { UNAVAILABLE_MESSAGE } from '../../errors.ts';
import type { Answer } from './types.ts';

type ErrorStatus = 'ValidationError' | 'ExecutionError' | 'AuthenticationError' | 'ForbiddenError' | 'Error';
const ERROR_STATUSES: ReadonlySet<string> = new Set([
  'ValidationError',
  'ExecutionError',
  'AuthenticationError',
  'ForbiddenError',
  'Error',
]);

export function refusal(statusCode: number, status: ErrorStatus, message: string): Answer {
  return { statusCode, body: { status, message } };
}

export const NOT_FOUND = refusal(404, 'Error', 'Webhook not found');
/**
 * Any method but POST on a webhook URL (mostly a GET: the trader opened it in a browser to check
 * it). It names no webhook (the same answer for every key) and says how the URL is used, instead
 * of a 'Not found' that reads as a wrong URL.
 */
export const POST_ONLY = refusal(
  405,
  'Error',
  'This webhook URL takes alerts sent by POST: paste it into your alert (TradingView, TrendSpider, Zapier) or POST an order as JSON to it; other methods (a browser opening it sends a GET) place nothing',
);
export const TOO_MANY = refusal(429, 'Error', 'Too many requests: slow down');
export const TOO_LARGE = refusal(413, 'ValidationError', `body: larger than ${MAX_BODY_LENGTH / 1024} KiB`);
export const UNAVAILABLE = refusal(503, 'Error', UNAVAILABLE_MESSAGE);
export const NO_SIGNALS_LEFT = refusal(400, 'ExecutionError', 'No signals left: top up in Account & Billing');
export const CONNECTOR_INACTIVE = refusal(
  400,
  'ExecutionError',
  'Broker connection is deactivated: reconnect it in Brokers & Webhooks',
);

/** The REST API's Idempotency-Key sent again with another order: the caller's mistake, not a retry. */
export const KEY_REUSED = refusal(
  400,
  'ValidationError',
  'Idempotency-Key: already used for another order; send a new key for a new order',
);

export const HOOK_INACTIVE = 'Webhook is deactivated';

/** A risk control refused the signal: the answer names it (`rule`), and so does its activity entry. */
export function ruleRefused(rule: string, message: string): Answer {
  const answer =
    rule === 'sourceAddresses' ? refusal(403, 'ForbiddenError', message) : refusal(400, 'ExecutionError', message);
  answer.body.rule = rule;
  return answer;
}

export function hooksPaused(reason: string): Answer {
  return ruleRefused('paused', `Webhooks are paused${reason ? `: ${reason}` : ''}`);
}

export function hookInactive(reason: string | null): Answer {
  return refusal(400, 'ExecutionError', `${HOOK_INACTIVE}${reason ? `: ${reason}` : ''}`);
}

/** 201 with the broker's order response; `id` falls back to our signal id. */
export function accepted(signalId: string, response: OrderResponse): Answer {
  const body: Record<string, unknown> = { id: response.id || signalId, status: response.status };
  if (response.status_description !== undefined) body.status_description = response.status_description;
  if (response.price !== undefined) body.price = response.price;
  return { statusCode: 201, body };
}

/**
 * The broker has not answered (deadline, unknown outcome): the order may still be placed.
 * `unsent`: nothing that could place it has left yet (the session still opening, or only reads
 * sent so far, as IBKR's close waiting for the live orders list): it is being sent, not sent.
 */
export function pending(signalId: string, title: string, unsent = false): Answer {
  const description = `${unsent ? 'Being sent' : 'Sent'} to ${title}; confirmation pending`;
  return { statusCode: 201, body: { id: signalId, status: 'accepted', status_description: description } };
}

/** Whether `body` is `pending`'s (as answered, or as stored): the broker has said nothing yet. */
export function isPendingBody(body: unknown, signalId: string, title: string): boolean {
  return [false, true].some((unsent) => isDeepStrictEqual(body, pending(signalId, title, unsent).body));
}

/** The broker cannot tell whether it has the order: stored as the signal's answer, for repeats too. */
export function unconfirmed(signalId: string, title: string): Answer {
  return {
    statusCode: 201,
    body: {
      id: signalId,
      status: 'accepted',
      status_description: `${title}: the order's outcome could not be confirmed; check your ${title} account`,
    },
  };
}

/** A stored answer body back into an answer (repeats get the first answer). */
export function fromStoredBody(body: unknown): Answer | undefined {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const record = body as Record<string, unknown>;
  const isError = typeof record.status === 'string' && ERROR_STATUSES.has(record.status) && 'message' in record;
  return { statusCode: isError ? 400 : 201, body: record };
}
