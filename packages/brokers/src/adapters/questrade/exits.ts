// close and cancel signals at Questrade, which has no call for either. close: the position
// (GET …/positions → {"positions":[{"symbol","symbolId","openQuantity",…}]}) and an opposite
// market order for it or a part (the exits of a part kept, cut to what is left); cancel: the
// symbol's open orders (GET …/orders?stateFilter=Open), each DELETEd.
import type { Order, OrderClass, OrderResponse } from '@router/orders';
import type { BrokerContext } from '../../core/broker.ts';
import { cancelEach } from '../../core/cancel-each.ts';
import { BrokerError } from '../../core/errors.ts';
import { closeFailedAfterCancel, cutExits } from '../../core/exits-cut.ts';
import { asRecord, decimalField, listOf, stringField } from '../../core/json-read.ts';
import type { AccountApi } from './api.ts';
import { QUESTRADE_TITLE } from './descriptor.ts';
import { fromPlacement, place } from './orders.ts';
import { symbolIdOf } from './symbols.ts';

export async function cancelById(api: AccountApi, orderId: string): Promise<void> {
  await api.http.request({ method: 'DELETE', path: `${api.path}/orders/${encodeURIComponent(orderId)}` });
}

/** How far back open orders are looked for: a good-till-canceled order may rest for months. */
const OPEN_ORDER_LOOKBACK_MS = 180 * 24 * 60 * 60_000;
const CLOCK_MARGIN_MS = 5 * 60_000;

/**
 * States of an order with nothing left to cancel or cut: done (WIRE.md §5) or being canceled
 * already. The Open filter is Questrade's own; one of these listed anyway is passed over, so a
 * refused cancel of it ("cannot be canceled in state Canceled") does not fail the signal.
 */
const DONE_STATES = new Set([
  'Executed',
  'Canceled',
  'PartialCanceled',
  'Expired',
  'Rejected',
  'Failed',
  'Replaced',
  'CancelPending',
]);

/**
 * The open orders of `symbolId`. Questrade lists only today's unless given a start (WIRE.md §6): a
 * stop left from an earlier day would go unseen. The end is a little past `now`, in case
 * Questrade's clock runs ahead of ours.
 */
async function openOrders(api: AccountApi, symbolId: number, now: number) {
  const query = {
    stateFilter: 'Open',
    startTime: new Date(now - OPEN_ORDER_LOOKBACK_MS).toISOString(),
    endTime: new Date(now + CLOCK_MARGIN_MS).toISOString(),
  };
  const { body } = await api.http.request({ path: `${api.path}/orders`, query });
  return listOf(asRecord(body)?.orders).filter(
    (item) => decimalField(item, 'symbolId') === symbolId && !DONE_STATES.has(stringField(item, 'state') ?? ''),
  );
}

/** Cancels the open orders of `symbolId` (`symbol`), one by one; their ids. */
async function cancelOpen(api: AccountApi, symbolId: number, symbol: string, now: number): Promise<string[]> {
  const ids = (await openOrders(api, symbolId, now))
    .map((item) => stringField(item, 'id'))
    .filter((id): id is string => id !== undefined);
  return cancelEach(ids, symbol, (id) => cancelById(api, id));
}

export async function cancelSymbol(
  api: AccountApi,
  ctx: BrokerContext,
  order: Order,
  now: number,
): Promise<OrderResponse> {
  const symbolId = await symbolIdOf(api.http, ctx.baseUrl, order.symbol, order.class, now);
  const ids = await cancelOpen(api, symbolId, order.symbol.trim(), now);
  const description = ids.length
    ? `Canceled ${ids.length} open order(s) of ${order.symbol}`
    : `No open orders of ${order.symbol}`;
  return { id: ids.join(','), status: 'canceled', status_description: description };
}

export async function closeSymbol(
  api: AccountApi,
  ctx: BrokerContext,
  symbol: string,
  orderClass: OrderClass,
  now: number,
  quantity?: number,
): Promise<OrderResponse> {
  const symbolId = await symbolIdOf(api.http, ctx.baseUrl, symbol, orderClass, now);
  const { body } = await api.http.request({ path: `${api.path}/positions` });
  const position = listOf(asRecord(body)?.positions).find((item) => decimalField(item, 'symbolId') === symbolId);
  const held = decimalField(position, 'openQuantity') ?? 0;
  if (held === 0) throw new BrokerError('InvalidOrder', QUESTRADE_TITLE, `no open position in ${symbol.trim()}`);
  const size = Math.min(quantity ?? Math.abs(held), Math.abs(held));
  if (!Number.isInteger(size) || size < 1)
    throw new BrokerError('InvalidOrder', QUESTRADE_TITLE, 'close takes whole shares or contracts');
  // A close of all of it cancels the symbol's open orders first: a bracket's stop or take profit
  // left working sold, once triggered, shares no longer held (a short opened).
  const canceled = size === Math.abs(held) ? await cancelOpen(api, symbolId, symbol.trim(), now) : [];
  const placed = await place(api, {
    path: 'orders',
    body: {
      accountNumber: api.accountNumber,
      symbolId,
      quantity: size,
      isAllOrNone: false,
      isAnonymous: false,
      orderType: 'Market',
      timeInForce: 'Day',
      action: held > 0 ? 'Sell' : 'Buy',
      primaryRoute: 'AUTO',
      secondaryRoute: 'AUTO',
    },
  }).catch((error: unknown) => {
    throw closeFailedAfterCancel(error, symbol.trim(), canceled);
  });
  const answer = {
    ...placed,
    status_description: `Closing ${size} of ${Math.abs(held)} ${symbol.trim()}: ${placed.status_description}`,
  };
  return size === Math.abs(held)
    ? answer
    : fitExits(api, symbolId, now, held > 0 ? 'Sell' : 'Buy', Math.abs(held) - size, answer);
}

/** Sides Questrade lists for an order that buys (Order Side enum); the others sell. */
const BUYING_SIDES = new Set(['Buy', 'Cov', 'BTO', 'BTC']);

/**
 * After a close of part of the position, its exits (the symbol's open single orders on the
 * closing side, `action`) larger than the `left` still held are cut to it: sized for the whole
 * position, a stop triggered later sold more than was held (a short opened). Questrade replaces
 * an order with a full new one (POST …/orders/{orderId}, WIRE.md §4): same terms, for what filled
 * plus what is left. Exits of a bracket whose entry has not executed (ContingentOrder) close no
 * part of what is held and are left alone. The close stands whatever happens here.
 */
function fitExits(
  api: AccountApi,
  symbolId: number,
  now: number,
  action: 'Buy' | 'Sell',
  left: number,
  answer: OrderResponse,
): Promise<OrderResponse> {
  const exits = async () =>
    (await openOrders(api, symbolId, now)).filter(
      (item) =>
        (BUYING_SIDES.has(stringField(item, 'side') ?? '') ? 'Buy' : 'Sell') === action &&
        stringField(item, 'state') !== 'ContingentOrder' &&
        listOf(item.legs).length === 0 &&
        (decimalField(item, 'openQuantity') ?? 0) > left,
    );
  return cutExits(answer, `the ${left} left`, exits, async (exit) => {
    const id = stringField(exit, 'id') ?? '';
    const optional = (key: string) => (exit[key] === null || exit[key] === undefined ? {} : { [key]: exit[key] });
    const json = {
      accountNumber: api.accountNumber,
      symbolId,
      quantity: (decimalField(exit, 'filledQuantity') ?? 0) + left,
      ...optional('limitPrice'),
      ...optional('stopPrice'),
      isAllOrNone: exit.isAllOrNone === true,
      isAnonymous: exit.isAnonymous === true,
      ...optional('orderType'),
      ...optional('timeInForce'),
      ...optional('gtdDate'),
      action,
      ...optional('primaryRoute'),
      ...optional('secondaryRoute'),
    };
    const { body } = await api.http.request({
      method: 'POST',
      path: `${api.path}/orders/${encodeURIComponent(id)}`,
      json,
    });
    const replaced = fromPlacement(body);
    if (replaced.status === 'rejected')
      throw new BrokerError('InvalidOrder', QUESTRADE_TITLE, replaced.status_description ?? 'replacement rejected');
    return `${id} → ${replaced.id}`;
  });
}
