// Order actions on one tastytrade account: placing (single and multi-leg orders, brackets as
// complex orders), the dry-run preview, closing a position with a market order (a part keeps its
// exits, cut to what is left), and the cancel action (every live order of a symbol). The account
// must belong to the connection.
import type { Order, OrderResponse } from '@router/orders';
import type { BrokerContext, BrokerSession } from '../../core/broker.ts';
import { cancelEach } from '../../core/cancel-each.ts';
import { BrokerError, checkAccountInConnection } from '../../core/errors.ts';
import { closeFailedAfterCancel, cutExits } from '../../core/exits-cut.ts';
import { asRecord, decimalField, type JsonRecord, listOf, stringField } from '../../core/json-read.ts';
import type { TastyApi } from './api.ts';
import { hasExits, toComplexOrder } from './complex.ts';
import { TASTYTRADE_TITLE } from './descriptor.ts';
import { liveOrders } from './lookup.ts';
import { externalIdFor, ORDER_SOURCE, type TastyLeg, type TastyOrder, toTastyOrder } from './mapper.ts';
import { dataOf, LIVE_STATUSES, positionsOf, toOrderResponse } from './reader.ts';
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
  const held = Math.abs(position.quantity);
  // A quantity closes that much of the position, never more than is held.
  const size = Math.min(held, order.quantity ?? Number.POSITIVE_INFINITY);
  // A close of all of it cancels the symbol's live orders first: a stop or take profit left
  // working sold, once triggered, what is no longer held (a short opened). A close of part keeps
  // them, cut to what is left once it is placed (fitExits).
  const canceled = size === held ? (await cancelOpenOrders(api, ctx, session, accountId, order)).id.split(',') : [];
  const leg: TastyLeg = {
    'instrument-type': position.instrumentType as InstrumentType,
    symbol,
    action: position.quantity > 0 ? rule.long : rule.short,
  };
  const close: TastyOrder = {
    'time-in-force': rule.tif,
    'order-type': 'Market',
    source: ORDER_SOURCE,
    ...(clientOrderId ? { 'external-identifier': externalIdFor(clientOrderId) } : {}),
    legs: [{ ...leg, quantity: size }],
  };
  const placed = await submit(api, ctx, session, accountId, { path: '/orders', json: close }).catch(
    (error: unknown) => {
      throw closeFailedAfterCancel(error, symbol, canceled.filter(Boolean));
    },
  );
  return size === held ? placed : fitExits(api, ctx, session, accountId, leg, held - size, placed);
}

/** A listed order's own terms, as a new order takes them. */
const TERMS = ['time-in-force', 'gtc-date', 'order-type', 'price', 'price-effect', 'stop-trigger'] as const;

/**
 * After a close of part of the position, its exits (live single-leg orders closing it as `closing`
 * does) are cut to the `left` still held: sized for the whole position, a stop triggered later sold
 * more than was held (a short opened). tastytrade's replace takes no legs, so no new quantity
 * (WIRE.md §7): each exit larger than what is left is canceled and sent again for it, with its
 * terms and no external identifier (it is no signal's). The exits of one complex order (a
 * bracket's pair, one canceling the other) go together, canceled with DELETE …/complex-orders/{id}
 * and sent again as an OCO complex order, so that one filling still cancels the other. Exits of a
 * bracket whose entry has not filled (Contingent) close nothing held and are left alone. Canceled
 * first: for a moment what is left has no exit, never two. The close stands whatever happens here.
 */
function fitExits(
  api: TastyApi,
  ctx: BrokerContext,
  session: BrokerSession,
  accountId: string,
  closing: TastyLeg,
  left: number,
  answer: OrderResponse,
): Promise<OrderResponse> {
  const path = accountPath(session, accountId);
  const remaining = (item: JsonRecord) => decimalField(listOf(item.legs)[0], 'remaining-quantity') ?? 0;
  const exits = async () => {
    const live = (await liveOrders(api, ctx, session, accountId)).filter((item) => {
      const legs = listOf(item.legs);
      const status = stringField(item, 'status') ?? '';
      return (
        LIVE_STATUSES.has(status) &&
        status !== 'Contingent' &&
        item.cancellable !== false &&
        legs.length === 1 &&
        stringField(legs[0], 'symbol') === closing.symbol &&
        stringField(legs[0], 'action') === closing.action
      );
    });
    const groups = new Map<string, JsonRecord[]>();
    for (const item of live) {
      const key = stringField(item, 'complex-order-id') ?? `order ${stringField(item, 'id')}`;
      groups.set(key, [...(groups.get(key) ?? []), item]);
    }
    return [...groups.values()].filter((group) => group.some((item) => remaining(item) > left));
  };
  return cutExits(answer, `the ${left} left`, exits, async (group) => {
    const [first] = group;
    const complexId = stringField(first, 'complex-order-id');
    const ids = group.map((item) => stringField(item, 'id') ?? '');
    const cancel = complexId
      ? `/complex-orders/${encodeURIComponent(complexId)}`
      : `/orders/${encodeURIComponent(ids[0] ?? '')}`;
    await api.call(ctx, session, { method: 'DELETE', path: `${path}${cancel}` });
    const again = group.map((item): TastyOrder => {
      const terms = Object.fromEntries(TERMS.filter((key) => item[key] !== undefined).map((key) => [key, item[key]]));
      const quantity = Math.min(remaining(item), left);
      return {
        ...(terms as Pick<TastyOrder, 'time-in-force' | 'order-type'>),
        source: ORDER_SOURCE,
        legs: [{ ...closing, quantity }],
      };
    });
    const [one, other] = again;
    const request =
      one && other
        ? { path: '/complex-orders', json: { type: 'OCO', orders: again, source: ORDER_SOURCE } }
        : { path: '/orders', json: one };
    const sent = await api.call(
      ctx,
      session,
      { method: 'POST', path: `${path}${request.path}`, json: request.json },
      'order',
    );
    const data = dataOf(sent.body);
    const placed = listOf(asRecord(data?.['complex-order'])?.orders);
    const newIds = placed.length ? placed.map((item) => stringField(item, 'id')) : [stringField(data?.order, 'id')];
    return `${ids.join(' and ')} → ${newIds.join(' and ')}`;
  });
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
  const ids = (await liveOrders(api, ctx, session, accountId))
    .filter((item) => LIVE_STATUSES.has(stringField(item, 'status') ?? '') && item.cancellable !== false)
    .filter((item) => listOf(item.legs).some((leg) => stringField(leg, 'symbol') === symbol))
    .map((item) => stringField(item, 'id'))
    .filter((id): id is string => id !== undefined);
  await cancelEach(ids, symbol, (id) =>
    api.call(ctx, session, { method: 'DELETE', path: `${path}/${encodeURIComponent(id)}` }),
  );
  const description = ids.length ? `Canceled ${ids.length} live order(s) of ${symbol}` : `No live orders of ${symbol}`;
  return { id: ids.join(','), status: 'canceled', status_description: description };
}
