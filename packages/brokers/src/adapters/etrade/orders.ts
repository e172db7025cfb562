// Placing at E*TRADE: preview, then place the same request with the PreviewIds (WIRE.md §4). A
// place refused with 101 (the preview went stale) placed nothing, so it is previewed and placed
// once more with the same clientOrderId. A 200 answer without OrderIds is read: error messages
// are a refusal, anything else an outcome we cannot confirm. E*TRADE's rate refusal (HTTP 400,
// order module 2 requests a second) is refused before anything is done, and a repeated place
// carries the clientOrderId E*TRADE takes once: both are waited out and sent again, within the
// caller's deadline.
import { setTimeout as sleep } from 'node:timers/promises';
import type { OrderResponse } from '@router/orders';
import type { BrokerContext, BrokerSession } from '../../core/broker.ts';
import { BrokerError, checkAccountInConnection, isBrokerError } from '../../core/errors.ts';
import { matchException } from '../../core/exceptions.ts';
import { asRecord, decimalField, listOf } from '../../core/json-read.ts';
import { type EtradeApi, EtradeError } from './api.ts';
import { ETRADE_TITLE, etradeDescriptor } from './descriptor.ts';
import type { EtradeOrderRequest } from './mapper.ts';
import { orderMessages, previewIdsOf } from './reader.ts';

/** The stale-preview refusal of a place (pyetrade issue #23). */
const STALE_PREVIEW = '101';
/** One second of E*TRADE's order module (2 requests a second), at most twice. */
export const RATE_PAUSE_MS = 1_000;
const RATE_RETRIES = 2;

/** `call`, sent again after a pause when E*TRADE refuses it for the request rate. */
export async function paced<T>(ctx: BrokerContext, call: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      if (attempt >= RATE_RETRIES || !isBrokerError(error) || error.kind !== 'RateLimited') throw error;
      // The deadline ends the wait: the rate refusal is the answer then.
      await sleep(RATE_PAUSE_MS, undefined, ctx.signal ? { signal: ctx.signal } : {}).catch(() => {
        throw error;
      });
    }
  }
}

export function accountPath(session: BrokerSession, accountId: string): string {
  checkAccountInConnection(ETRADE_TITLE, session, accountId);
  return `/v1/accounts/${encodeURIComponent(accountId)}`;
}

/** Error messages of a 200 answer, as the refusal they are. */
function refusalIn(answer: Record<string, unknown> | undefined): BrokerError | undefined {
  const errors = orderMessages(answer).filter((message) => message.type === 'ERROR');
  if (errors.length === 0) return undefined;
  const text = errors.map((message) => message.text).join('; ');
  const kind = matchException(etradeDescriptor.exceptions, text) ?? 'InvalidOrder';
  return new BrokerError(kind, ETRADE_TITLE, text);
}

/** Where a step (preview, place) is sent: a new order's, or a change's of the open order `change`. */
function stepOf(session: BrokerSession, accountId: string, step: 'preview' | 'place', change?: string) {
  const orders = `${accountPath(session, accountId)}/orders`;
  return change
    ? { method: 'PUT' as const, path: `${orders}/${encodeURIComponent(change)}/change/${step}` }
    : { method: 'POST' as const, path: `${orders}/${step}.json` };
}

/** The preview of a new order, or with `change` (an open order's id) of that order's change. */
export async function previewRequest(
  api: EtradeApi,
  ctx: BrokerContext,
  session: BrokerSession,
  accountId: string,
  request: EtradeOrderRequest,
  change?: string,
) {
  const step = stepOf(session, accountId, 'preview', change);
  // A preview creates nothing: it may be renewed and repeated like a read.
  const { body } = await paced(ctx, () =>
    api.call(ctx, session, { ...step, json: { PreviewOrderRequest: request }, mutating: false }),
  );
  const answer = asRecord(asRecord(body)?.PreviewOrderResponse);
  const previewIds = previewIdsOf(body);
  if (previewIds.length === 0) {
    throw refusalIn(answer) ?? new BrokerError('BrokerUnavailable', ETRADE_TITLE, 'the preview returned no preview id');
  }
  return { previewIds, answer };
}

/**
 * Previews and places a new order; with `change` (an open order's id), changes that order the same
 * way (PUT …/orders/{orderId}/change/preview, then …/change/place, WIRE.md §7): E*TRADE replaces
 * it with a new order, whose id is the answer's.
 */
export async function placeRequest(
  api: EtradeApi,
  ctx: BrokerContext,
  session: BrokerSession,
  accountId: string,
  request: EtradeOrderRequest,
  change?: string,
): Promise<OrderResponse> {
  const step = stepOf(session, accountId, 'place', change);
  for (let attempt = 1; ; attempt++) {
    const { previewIds } = await previewRequest(api, ctx, session, accountId, request, change);
    const { orderType, clientOrderId, Order } = request;
    try {
      const json = { PlaceOrderRequest: { orderType, clientOrderId, PreviewIds: previewIds, Order } };
      const { body } = await paced(ctx, () => api.call(ctx, session, { ...step, json }, 'order'));
      return placedOf(body);
    } catch (error) {
      if (attempt === 1 && error instanceof EtradeError && error.code === STALE_PREVIEW) continue;
      throw error;
    }
  }
}

function placedOf(body: unknown): OrderResponse {
  const answer = asRecord(asRecord(body)?.PlaceOrderResponse);
  const [first] = listOf(answer?.OrderIds);
  const orderId = decimalField(first, 'orderId');
  if (orderId === undefined) {
    throw (
      refusalIn(answer) ??
      new BrokerError('BrokerUnavailable', ETRADE_TITLE, 'the answer carries no order id; check the account', {
        outcomeUnknown: true,
      })
    );
  }
  const notes = orderMessages(answer).map((message) => message.text);
  return {
    id: String(orderId),
    status: 'accepted',
    status_description: notes.length ? notes.join(' ') : 'Order placed at E*TRADE',
  };
}

/** Our previewOrder: E*TRADE's preview, its estimate and messages; nothing is placed. */
export async function previewOf(
  api: EtradeApi,
  ctx: BrokerContext,
  session: BrokerSession,
  accountId: string,
  request: EtradeOrderRequest,
): Promise<OrderResponse> {
  const { answer } = await previewRequest(api, ctx, session, accountId, request);
  const [order] = listOf(answer?.Order);
  const total = decimalField(order, 'estimatedTotalAmount') ?? decimalField(answer, 'totalOrderValue');
  const commission = decimalField(order, 'estimatedCommission');
  const parts = ['Preview, nothing placed.'];
  if (total !== undefined) parts.push(`Estimated total ${total}${commission ? `, commission ${commission}` : ''}.`);
  const notes = orderMessages(answer).map((message) => message.text);
  if (notes.length) parts.push(`E*TRADE: ${notes.join(' ')}`);
  return { id: request.clientOrderId, status: 'draft', status_description: parts.join(' ') };
}

/** Cancels one order (a request: CANCEL_REQUESTED, then CANCELLED). */
export async function cancelById(
  api: EtradeApi,
  ctx: BrokerContext,
  session: BrokerSession,
  accountId: string,
  orderId: string,
): Promise<void> {
  const id = Number(orderId);
  if (!Number.isSafeInteger(id)) throw new BrokerError('OrderNotFound', ETRADE_TITLE, `no order ${orderId}`);
  await api.call(ctx, session, {
    method: 'PUT',
    path: `${accountPath(session, accountId)}/orders/cancel.json`,
    json: { CancelOrderRequest: { orderId: id } },
  });
}
