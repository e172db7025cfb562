// Finding FOREX.com orders again (WIRE.md §7). With its OrderId: GET /order/{id} knows active
// orders only (working, open positions), so the trade and stop/limit histories are searched
// after it. Without one there is no client id to search by: the trades, working orders and
// stop/limit history of the window are matched on market, direction, quantity (and level).
import type { Order, OrderResponse } from '@router/orders';
import type { BrokerContext, BrokerSession } from '../../core/broker.ts';
import { asRecord, decimalField, type JsonRecord, listOf, stringField } from '../../core/json-read.ts';
import type { ListedOrder } from '../../core/lookup.ts';
import type { ForexApi } from './api.ts';
import { type Direction, entryLevel } from './mapper.ts';
import type { ForexAccount, ForexMarket } from './markets.ts';
import { orderStatus } from './status.ts';

/** History entries read per list: fewer than this proves the list holds the whole window. */
export const HISTORY_SIZE = 100;

export interface Lookup {
  api: ForexApi;
  ctx: BrokerContext;
  session: BrokerSession;
  account: ForexAccount;
}

/** A WCF date ("/Date(1732447200000)/", with or without an offset) or ISO text, in ms. */
export function wcfTime(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const wcf = /\/Date\((-?\d+)([+-]\d{4})?\)\//.exec(value);
  const ms = wcf ? Number(wcf[1]) : Date.parse(value);
  return Number.isFinite(ms) ? ms : undefined;
}

function responseOf(item: JsonRecord, status: number | undefined): OrderResponse {
  const [ours, words] = orderStatus(status);
  const price = decimalField(item, 'Price');
  return {
    id: stringField(item, 'OrderId') ?? '',
    status: ours,
    status_description: `FOREX.com order ${words}`,
    ...(ours === 'filled' && price !== undefined && price > 0 ? { price } : {}),
  };
}

async function history(lookup: Lookup, kind: 'trades' | 'stopLimits') {
  const { api, ctx, session, account } = lookup;
  const path = kind === 'trades' ? '/order/tradehistory' : '/order/stoplimitorderhistory';
  const { body } = await api.call(ctx, session, {
    path,
    query: { TradingAccountId: account.tradingAccountId, MaxResults: HISTORY_SIZE },
  });
  return listOf(asRecord(body)?.[kind === 'trades' ? 'TradeHistory' : 'StopLimitOrderHistory']);
}

export async function findById(lookup: Lookup, orderId: string): Promise<OrderResponse | null> {
  const { api, ctx, session, account } = lookup;
  const { body } = await api.call(ctx, session, { path: `/order/${encodeURIComponent(orderId)}` });
  const active = [asRecord(asRecord(body)?.TradeOrder), asRecord(asRecord(body)?.StopLimitOrder)].find(
    (item) => item && decimalField(item, 'TradingAccountId') === account.tradingAccountId,
  );
  if (active) return responseOf(active, decimalField(active, 'StatusId'));
  const trade = (await history(lookup, 'trades')).find((item) => stringField(item, 'OrderId') === orderId);
  // A trade in the history was filled: it is an open (3) or closed (9) position.
  if (trade) return responseOf(trade, 3);
  const entry = (await history(lookup, 'stopLimits')).find((item) => stringField(item, 'OrderId') === orderId);
  return entry ? responseOf(entry, decimalField(entry, 'StatusId')) : null;
}

const same = (a: number | undefined, b: number | undefined) =>
  a !== undefined && b !== undefined && Math.abs(a - b) < 1e-9;

/** Whether a history answer may have left out the start of the window. */
const truncated = (items: JsonRecord[], field: string, from: number) =>
  items.length >= HISTORY_SIZE && Math.min(...items.map((item) => wcfTime(item[field]) ?? 0)) > from;

/**
 * The orders of the window with the terms of `order` on `market`; null when a history no longer
 * reaches back to the window's start, so nothing can be proved.
 */
export async function listMatching(
  lookup: Lookup,
  order: Order,
  market: ForexMarket,
  window: { from: number; to: number },
): Promise<ListedOrder[] | null> {
  const inWindow = (item: JsonRecord, field: string) => {
    const at = wcfTime(item[field]);
    return at !== undefined && at >= window.from && at <= window.to;
  };
  const terms = (item: JsonRecord, quantityField: string) =>
    decimalField(item, 'MarketId') === market.marketId &&
    stringField(item, 'Direction')?.toLowerCase() === order.action &&
    same(decimalField(item, quantityField), order.quantity);
  const listed = (item: JsonRecord, status: number | undefined): ListedOrder => ({
    order: responseOf(item, status),
    match: 'terms',
  });
  if (order.type === 'market') {
    const trades = await history(lookup, 'trades');
    if (truncated(trades, 'ExecutedDateTimeUtc', window.from)) return null;
    return trades
      .filter((item) => terms(item, 'OriginalQuantity') && inWindow(item, 'ExecutedDateTimeUtc'))
      .map((item) => listed(item, 3));
  }
  // The level as it was sent: at the market's decimals (mapper.ts).
  const raw = order.type === 'limit' ? order.limit_price : order.stop_price;
  const trigger = raw === undefined ? undefined : entryLevel(raw, order.type, order.action as Direction, market);
  const atLevel = (item: JsonRecord) => same(decimalField(item, 'TriggerPrice'), trigger);
  const { api, ctx, session, account } = lookup;
  const { body } = await api.call(ctx, session, {
    path: '/order/activestoplimitorders',
    query: { TradingAccountId: account.tradingAccountId },
  });
  const working = listOf(asRecord(body)?.ActiveStopLimitOrders).filter(
    (item) => terms(item, 'Quantity') && atLevel(item) && inWindow(item, 'LastChangedDateTimeUTC'),
  );
  const done = await history(lookup, 'stopLimits');
  if (truncated(done, 'CreatedDateTimeUtc', window.from)) return null;
  const ended = done.filter(
    (item) => terms(item, 'OriginalQuantity') && atLevel(item) && inWindow(item, 'CreatedDateTimeUtc'),
  );
  const byId = new Map<string, ListedOrder>();
  for (const item of working) byId.set(stringField(item, 'OrderId') ?? '', listed(item, decimalField(item, 'Status')));
  for (const item of ended) byId.set(stringField(item, 'OrderId') ?? '', listed(item, decimalField(item, 'StatusId')));
  return [...byId.values()];
}
