// Order actions on one Schwab account: placing (id from the Location header of an empty 201),
// closing a position with an opposite market order, and the cancel action (every open order
// of a symbol). The account is addressed by its hash; it must belong to the connection.
import type { OrderResponse } from '@router/orders';
import type { BrokerContext, BrokerSession } from '../../core/broker.ts';
import { BrokerError, checkAccountInConnection } from '../../core/errors.ts';
import { asRecord, listOf, stringField } from '../../core/json-read.ts';
import type { SchwabApi } from './api.ts';
import { SCHWAB_TITLE } from './descriptor.ts';
import { legOf, type SchwabOrder } from './mapper.ts';
import { orderIdFromLocation, positionsOf } from './reader.ts';

const OPEN_STATUSES = new Set([
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
  return id
    ? { id, status: 'accepted', status_description: 'Order placed at Schwab' }
    : { id: '', status: 'accepted', status_description: 'Order placed at Schwab; no order id in the answer' };
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
  // A close of all of it cancels the symbol's open orders first: a bracket's stop or take profit
  // left working sold, once triggered, shares no longer held (a short opened).
  if (quantity === undefined || quantity >= Math.abs(position.quantity))
    await cancelOpenOrders(api, ctx, session, accountId, position.symbol, now);
  const option = position.assetType === 'OPTION';
  const long = position.quantity > 0;
  const action = option ? (long ? 'sell_to_close' : 'buy_to_close') : long ? 'sell' : 'buy_to_cover';
  return submitOrder(api, ctx, session, accountId, {
    orderStrategyType: 'SINGLE',
    session: 'NORMAL',
    duration: 'DAY',
    orderType: 'MARKET',
    // A quantity closes that much of the position, never more than is held.
    orderLegCollection: [
      legOf(
        position.symbol,
        option ? 'option' : 'stock',
        action,
        Math.min(Math.abs(position.quantity), quantity ?? Number.POSITIVE_INFINITY),
      ),
    ],
  });
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
  const query = {
    fromEnteredTime: new Date(now - OPEN_ORDER_LOOKBACK_MS).toISOString(),
    toEnteredTime: new Date(now).toISOString(),
  };
  const { body } = await api.call(ctx, session, { path, query });
  const open = listOf(body).filter((order) => {
    const symbols = listOf(order.orderLegCollection).map(
      (leg) => stringField(asRecord(leg.instrument), 'symbol') ?? '',
    );
    const status = stringField(order, 'status') ?? '';
    return OPEN_STATUSES.has(status) && order.cancelable !== false && symbols.some((item) => sameSymbol(item, symbol));
  });
  const ids = open.map((order) => stringField(order, 'orderId')).filter((id): id is string => id !== undefined);
  for (const id of ids) await api.call(ctx, session, { method: 'DELETE', path: `${path}/${encodeURIComponent(id)}` });
  const name = symbol.trim();
  const description = ids.length ? `Canceled ${ids.length} open order(s) of ${name}` : `No open orders of ${name}`;
  return { id: ids.join(','), status: 'canceled', status_description: description };
}
