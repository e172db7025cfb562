// Order actions on one tastytrade account: placing (single and multi-leg orders, brackets as
// complex orders), the dry-run preview, closing a position with a market order, and the cancel
// action (every live order of a symbol). The account must belong to the connection.
import type { Order, OrderResponse } from '@router/orders';
import type { BrokerContext, BrokerSession } from '../../core/broker.ts';
import { BrokerError, checkAccountInConnection } from '../../core/errors.ts';
import { asRecord, decimalField, listOf, stringField } from '../../core/json-read.ts';
import type { TastyApi } from './api.ts';
import { hasExits, toComplexOrder } from './complex.ts';
import { TASTYTRADE_TITLE } from './descriptor.ts';
import { externalIdFor, ORDER_SOURCE, type TastyOrder, toTastyOrder } from './mapper.ts';
import { dataOf, itemsOf, LIVE_STATUSES, positionsOf, toOrderResponse } from './reader.ts';
import { type InstrumentType, instrumentOf, invalid } from './symbols.ts';

export function accountPath(session: BrokerSession, accountId: string): string {
  checkAccountInConnection(TASTYTRADE_TITLE, session, accountId);
  return `/accounts/${encodeURIComponent(accountId)}`;
}

/** The request a signal becomes: an order, or a complex order when it has exits. */
export function orderRequest(order: Order, clientOrderId: string): { path: string; json: unknown } {
  return hasExits(order)
    ? { path: '/complex-orders', json: toComplexOrder(order, clientOrderId) }
    : { path: '/orders', json: toTastyOrder(order, clientOrderId) };
}

/** The placed order in an answer: data.order, or a complex order's trigger-order. */
function placedOrder(body: unknown): Record<string, unknown> | undefined {
  const data = dataOf(body);
  return asRecord(data?.order) ?? asRecord(asRecord(data?.['complex-order'])?.['trigger-order']);
}

export async function submit(
  api: TastyApi,
  ctx: BrokerContext,
  session: BrokerSession,
  accountId: string,
  request: { path: string; json: unknown },
): Promise<OrderResponse> {
  const path = `${accountPath(session, accountId)}${request.path}`;
  const { body } = await api.call(ctx, session, { method: 'POST', path, json: request.json }, 'order');
  const placed = placedOrder(body);
  if (!placed || stringField(placed, 'id') === undefined) {
    // A 2xx without the order: it may exist all the same; reconciliation finds it by our id.
    throw new BrokerError('BrokerUnavailable', TASTYTRADE_TITLE, 'the answer names no order', { outcomeUnknown: true });
  }
  return toOrderResponse(placed);
}

const texts = (value: unknown) =>
  listOf(value)
    .map((item) => stringField(item, 'message'))
    .concat((Array.isArray(value) ? value : []).filter((item): item is string => typeof item === 'string'))
    .filter((text): text is string => !!text);

/** The dry-run's verdict: buying power and fees, warnings passed on; nothing is placed. */
export async function preview(
  api: TastyApi,
  ctx: BrokerContext,
  session: BrokerSession,
  accountId: string,
  request: { path: string; json: unknown },
  clientOrderId: string,
): Promise<OrderResponse> {
  const path = `${accountPath(session, accountId)}${request.path}/dry-run`;
  const { body } = await api.call(ctx, session, { method: 'POST', path, json: request.json, mutating: false });
  const data = dataOf(body);
  const power = asRecord(data?.['buying-power-effect']);
  const fees = asRecord(data?.['fee-calculation']);
  const parts = ['Preview, nothing placed.'];
  const change = decimalField(power, 'change-in-buying-power');
  if (change !== undefined) {
    parts.push(`Buying power change ${change} (${stringField(power, 'change-in-buying-power-effect') ?? 'None'}).`);
  }
  const total = decimalField(fees, 'total-fees');
  if (total !== undefined) parts.push(`Fees ${total}.`);
  const warnings = texts(data?.warnings);
  if (warnings.length) parts.push(`${TASTYTRADE_TITLE} warns: ${warnings.join('; ')}`);
  return { id: clientOrderId, status: 'draft', status_description: parts.join(' ') };
}

/** Closing a position: leg action and time in force per instrument type. */
const CLOSE: Record<string, { long: string; short: string; tif: string }> = {
  Equity: { long: 'Sell to Close', short: 'Buy to Close', tif: 'Day' },
  'Equity Option': { long: 'Sell to Close', short: 'Buy to Close', tif: 'Day' },
  Future: { long: 'Sell', short: 'Buy', tif: 'Day' },
  // Crypto trades around the clock: an immediate-or-cancel market order.
  Cryptocurrency: { long: 'Sell to Close', short: 'Buy to Close', tif: 'IOC' },
};

export async function closeSymbol(
  api: TastyApi,
  ctx: BrokerContext,
  session: BrokerSession,
  accountId: string,
  order: Pick<Order, 'symbol' | 'class'> & Partial<Pick<Order, 'quantity' | 'quantity_type'>>,
  clientOrderId?: string,
): Promise<OrderResponse> {
  const path = accountPath(session, accountId);
  if (order.quantity !== undefined && order.quantity_type !== 'fixed') {
    throw invalid(`close takes a fixed quantity, not quantity_type ${order.quantity_type}`);
  }
  const { symbol } = instrumentOf(order.symbol, order.class);
  const { body } = await api.call(ctx, session, { path: `${path}/positions`, query: { symbol } });
  const position = positionsOf(body).find((item) => item.symbol === symbol);
  const rule = position && CLOSE[position.instrumentType];
  if (!position || !rule) throw invalid(`no open position in ${symbol}`);
  // A close of all of it cancels the symbol's live orders first: a stop or take profit left
  // working sold, once triggered, what is no longer held (a short opened).
  if (order.quantity === undefined || order.quantity >= Math.abs(position.quantity))
    await cancelOpenOrders(api, ctx, session, accountId, order);
  const close: TastyOrder = {
    'time-in-force': rule.tif,
    'order-type': 'Market',
    source: ORDER_SOURCE,
    ...(clientOrderId ? { 'external-identifier': externalIdFor(clientOrderId) } : {}),
    legs: [
      {
        'instrument-type': position.instrumentType as InstrumentType,
        symbol,
        // A quantity closes that much of the position, never more than is held.
        quantity: Math.min(Math.abs(position.quantity), order.quantity ?? Number.POSITIVE_INFINITY),
        action: position.quantity > 0 ? rule.long : rule.short,
      },
    ],
  };
  return submit(api, ctx, session, accountId, { path: '/orders', json: close });
}

/** The cancel action: every live, cancellable order with a leg in the symbol; none is an answer. */
export async function cancelOpenOrders(
  api: TastyApi,
  ctx: BrokerContext,
  session: BrokerSession,
  accountId: string,
  order: Pick<Order, 'symbol' | 'class'>,
): Promise<OrderResponse> {
  const path = `${accountPath(session, accountId)}/orders`;
  const { symbol } = instrumentOf(order.symbol, order.class);
  const { body } = await api.call(ctx, session, { path: `${path}/live` });
  const ids = itemsOf(body)
    .filter((item) => LIVE_STATUSES.has(stringField(item, 'status') ?? '') && item.cancellable !== false)
    .filter((item) => listOf(item.legs).some((leg) => stringField(leg, 'symbol') === symbol))
    .map((item) => stringField(item, 'id'))
    .filter((id): id is string => id !== undefined);
  for (const id of ids) await api.call(ctx, session, { method: 'DELETE', path: `${path}/${encodeURIComponent(id)}` });
  const description = ids.length ? `Canceled ${ids.length} live order(s) of ${symbol}` : `No live orders of ${symbol}`;
  return { id: ids.join(','), status: 'canceled', status_description: description };
}
