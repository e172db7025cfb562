// Order actions on one Schwab account: placing (id from the Location header of an empty 201),
// closing a position with an opposite market order (a part keeps its exits, cut to what is left),
// and the cancel action (every open order of a symbol). The account is addressed by its hash; it
// must belong to the connection.
import type { OrderResponse } from '@router/orders';
import type { BrokerContext, BrokerSession } from '../../core/broker.ts';
import { cancelEach } from '../../core/cancel-each.ts';
import { BrokerError, checkAccountInConnection } from '../../core/errors.ts';
import { closeFailedAfterCancel, cutExits } from '../../core/exits-cut.ts';
import { asRecord, decimalField, type JsonRecord, listOf, stringField } from '../../core/json-read.ts';
import type { SchwabApi } from './api.ts';
import { SCHWAB_TITLE } from './descriptor.ts';
import { legOf, type SchwabLeg, type SchwabOrder } from './mapper.ts';
import { orderIdFromLocation, positionsOf } from './reader.ts';

/**
 * Statuses of a live order (apiOrderStatus in the openapi), one sent and not yet acknowledged
 * among them: left out, its stop would be left working by a close of all of it.
 */
const OPEN_STATUSES = new Set([
  'PENDING_ACKNOWLEDGEMENT',
  'WORKING',
  'QUEUED',
  'ACCEPTED',
  'NEW',
  'PENDING_ACTIVATION',
  'AWAITING_PARENT_ORDER',
  'AWAITING_CONDITION',
  'AWAITING_STOP_CONDITION',
  'AWAITING_MANUAL_REVIEW',
  'AWAITING_RELEASE_TIME',
]);
/** Open orders are looked for this far back (Schwab allows at most a year per query). */
const OPEN_ORDER_LOOKBACK_MS = 364 * 24 * 60 * 60_000;
const sameSymbol = (a: string, b: string) =>
  a.replace(/\s+/g, '').toUpperCase() === b.replace(/\s+/g, '').toUpperCase();

export function accountPath(session: BrokerSession, accountId: string): string {
  checkAccountInConnection(SCHWAB_TITLE, session, accountId);
  return `/trader/v1/accounts/${encodeURIComponent(accountId)}`;
}

export async function submitOrder(
  api: SchwabApi,
  ctx: BrokerContext,
  session: BrokerSession,
  accountId: string,
  order: SchwabOrder,
): Promise<OrderResponse> {
  const path = `${accountPath(session, accountId)}/orders`;
  const response = await api.call(ctx, session, { method: 'POST', path, json: order }, 'order');
  const id = orderIdFromLocation(response.headers.get('location'));
  // A 2xx without the order's id says nothing sure: the order is found again by its terms.
  if (!id)
    throw new BrokerError('BrokerUnavailable', SCHWAB_TITLE, 'no order id in the answer', { outcomeUnknown: true });
  return { id, status: 'accepted', status_description: 'Order placed at Schwab' };
}

export async function closeSymbol(
  api: SchwabApi,
  ctx: BrokerContext,
  session: BrokerSession,
  accountId: string,
  symbol: string,
  now: number,
  quantity?: number,
): Promise<OrderResponse> {
  const path = accountPath(session, accountId);
  const { body } = await api.call(ctx, session, { path, query: { fields: 'positions' } });
  const position = positionsOf(body).find((item) => sameSymbol(item.symbol, symbol));
  if (!position) throw new BrokerError('InvalidOrder', SCHWAB_TITLE, `no open position in ${symbol.trim()}`);
  const held = Math.abs(position.quantity);
  // A quantity closes that much of the position, never more than is held.
  const size = Math.min(held, quantity ?? Number.POSITIVE_INFINITY);
  // A close of all of it cancels the symbol's open orders first: a bracket's stop or take profit
  // left working sold, once triggered, shares no longer held (a short opened). A close of part
  // keeps them, cut to what is left once it is placed (fitExits).
  const canceled =
    size === held ? (await cancelOpenOrders(api, ctx, session, accountId, position.symbol, now)).id.split(',') : [];
  const option = position.assetType === 'OPTION';
  const long = position.quantity > 0;
  const action = option ? (long ? 'sell_to_close' : 'buy_to_close') : long ? 'sell' : 'buy_to_cover';
  const leg = legOf(position.symbol, option ? 'option' : 'stock', action, size);
  const placed = await submitOrder(api, ctx, session, accountId, {
    orderStrategyType: 'SINGLE',
    session: 'NORMAL',
    duration: 'DAY',
    orderType: 'MARKET',
    orderLegCollection: [leg],
  }).catch((error: unknown) => {
    throw closeFailedAfterCancel(error, symbol.trim(), canceled.filter(Boolean));
  });
  return size === held ? placed : fitExits(api, ctx, session, accountId, leg, held - size, now, placed);
}

/** An order's own terms, as Schwab takes them back (OrderRequest); what a listing adds is left out. */
const REQUEST_FIELDS = [
  'session',
  'duration',
  'orderType',
  'complexOrderStrategyType',
  'price',
  'stopPrice',
  'stopPriceLinkBasis',
  'stopPriceLinkType',
  'stopPriceOffset',
  'stopType',
  'priceLinkBasis',
  'priceLinkType',
  'taxLotMethod',
  'specialInstruction',
  'orderStrategyType',
];

/**
 * A listed order's terms with its legs for `left`, if it is an exit larger than that: a single
 * order of one leg closing as `closing` does, or a one-cancels-other pair of them.
 */
function exitFor(order: JsonRecord, closing: SchwabLeg, left: number): JsonRecord | undefined {
  const strategy = stringField(order, 'orderStrategyType');
  const children = listOf(order.childOrderStrategies);
  const terms = Object.fromEntries(
    REQUEST_FIELDS.filter((key) => order[key] !== undefined).map((key) => [key, order[key]]),
  );
  if (strategy === 'OCO') {
    const cut = children.map((child) => exitFor(child, closing, left));
    return cut.length && cut.every(Boolean) ? { ...terms, childOrderStrategies: cut } : undefined;
  }
  const legs = listOf(order.orderLegCollection);
  const [leg] = legs;
  if (strategy !== 'SINGLE' || children.length || legs.length !== 1 || !leg) return undefined;
  const symbol = stringField(asRecord(leg.instrument), 'symbol') ?? '';
  if (stringField(leg, 'instruction') !== closing.instruction || !sameSymbol(symbol, closing.instrument.symbol))
    return undefined;
  const remaining =
    decimalField(order, 'remainingQuantity') ??
    (decimalField(leg, 'quantity') ?? 0) - (decimalField(order, 'filledQuantity') ?? 0);
  return remaining > left ? { ...terms, orderLegCollection: [{ ...closing, quantity: left }] } : undefined;
}

/**
 * After a close of part of the position, its exits (open orders closing it as `closing` does, on
 * their own or one-cancels-other) larger than the `left` still held are cut to it: sized for the
 * whole position, a stop triggered later sold more than was held (a short opened). Schwab replaces
 * an order with PUT …/orders/{orderId} and the whole new order: the old one is canceled, the new
 * one has the same terms for what is left. The close stands whatever happens here.
 */
function fitExits(
  api: SchwabApi,
  ctx: BrokerContext,
  session: BrokerSession,
  accountId: string,
  closing: SchwabLeg,
  left: number,
  now: number,
  answer: OrderResponse,
): Promise<OrderResponse> {
  const path = `${accountPath(session, accountId)}/orders`;
  const exits = async () =>
    (await openOrders(api, ctx, session, accountId, closing.instrument.symbol, now)).flatMap((order) => {
      const exit = exitFor(order, closing, left);
      const id = stringField(order, 'orderId');
      return exit && id ? [{ id, exit }] : [];
    });
  return cutExits(answer, `the ${left} left`, exits, async ({ id, exit }) => {
    const request = { method: 'PUT' as const, path: `${path}/${encodeURIComponent(id)}`, json: exit };
    const replaced = await api.call(ctx, session, request, 'order');
    return `${id} → ${orderIdFromLocation(replaced.headers.get('location')) ?? 'a new order'}`;
  });
}

/** The symbols of an order's legs, its child orders' too. */
const symbolsOf = (order: JsonRecord): string[] => [
  ...listOf(order.orderLegCollection).map((leg) => stringField(asRecord(leg.instrument), 'symbol') ?? ''),
  ...listOf(order.childOrderStrategies).flatMap(symbolsOf),
];

/**
 * The open orders among `listed`: each open one (its child orders go with it), else the open ones
 * among its child orders. Schwab lists a bracket's exits inside their entry (childOrderStrategies,
 * each with its own orderId and status): once the entry has filled, they are what is open of it.
 * Done ones (FILLED, CANCELED, EXPIRED, REJECTED, REPLACED) and those being canceled or replaced
 * are passed over.
 */
function openAmong(listed: JsonRecord[]): JsonRecord[] {
  return listed.flatMap((order) => {
    const open = OPEN_STATUSES.has(stringField(order, 'status') ?? '') && stringField(order, 'orderId') !== undefined;
    if (!open) return openAmong(listOf(order.childOrderStrategies));
    return order.cancelable === false ? [] : [order];
  });
}

/** The open orders with a leg in `symbol` (entered within the year Schwab lists at most). */
async function openOrders(
  api: SchwabApi,
  ctx: BrokerContext,
  session: BrokerSession,
  accountId: string,
  symbol: string,
  now: number,
): Promise<JsonRecord[]> {
  const query = {
    fromEnteredTime: new Date(now - OPEN_ORDER_LOOKBACK_MS).toISOString(),
    toEnteredTime: new Date(now).toISOString(),
  };
  const { body } = await api.call(ctx, session, { path: `${accountPath(session, accountId)}/orders`, query });
  return openAmong(listOf(body)).filter((order) => symbolsOf(order).some((item) => sameSymbol(item, symbol)));
}

/** The cancel action; none open is an answer, not an error. */
export async function cancelOpenOrders(
  api: SchwabApi,
  ctx: BrokerContext,
  session: BrokerSession,
  accountId: string,
  symbol: string,
  now: number,
): Promise<OrderResponse> {
  const path = `${accountPath(session, accountId)}/orders`;
  const open = await openOrders(api, ctx, session, accountId, symbol, now);
  const ids = open.map((order) => stringField(order, 'orderId')).filter((id): id is string => id !== undefined);
  const name = symbol.trim();
  await cancelEach(ids, name, (id) =>
    api.call(ctx, session, { method: 'DELETE', path: `${path}/${encodeURIComponent(id)}` }),
  );
  const description = ids.length ? `Canceled ${ids.length} open order(s) of ${name}` : `No open orders of ${name}`;
  return { id: ids.join(','), status: 'canceled', status_description: description };
}
