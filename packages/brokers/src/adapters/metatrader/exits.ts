// close and cancel signals, and the holdings, at MetaTrader. cancel: ORDER_CANCEL for each pending
// order of the symbol. close: its pending orders canceled and its positions closed with
// POSITIONS_CLOSE_SYMBOL, or a part of each for percent_of_position (partial-close.ts: nothing
// canceled but the exits larger than what is left). Nothing to close or cancel is refused, so a
// repeated close closes nothing.
import type { Order, OrderResponse } from '@router/orders';
import type { BrokerContext, Holdings } from '../../core/broker.ts';
import { cancelEach } from '../../core/cancel-each.ts';
import { closeFailedAfterCancel } from '../../core/exits-cut.ts';
import type { HttpClient } from '../../core/http.ts';
import { decimalField, listOf, stringField } from '../../core/json-read.ts';
import { accountPath, fail, type MetaApiLink } from './client.ts';
import { cancelPendingOrder, symbolItems } from './items.ts';
import { closePart, lotRule, partOf, tooSmall } from './partial-close.ts';
import { sendTrade } from './trade.ts';

/**
 * Cancels the symbol's pending orders; ids of those canceled (one filled meanwhile is skipped). A
 * failure after some were canceled names them (cancelEach).
 */
async function cancelPending(ctx: BrokerContext, http: HttpClient, link: MetaApiLink, symbol: string) {
  const ids = (await symbolItems(http, link, 'orders', symbol))
    .map((order) => stringField(order, 'id'))
    .filter((id): id is string => id !== undefined);
  return cancelEach(ids, symbol, (orderId) => cancelPendingOrder(ctx, http, link, orderId));
}

export async function cancelSymbol(
  ctx: BrokerContext,
  http: HttpClient,
  link: MetaApiLink,
  symbol: string,
): Promise<OrderResponse> {
  const canceled = await cancelPending(ctx, http, link, symbol);
  if (!canceled.length) throw fail('InvalidOrder', `no pending order of ${symbol} to cancel`);
  return {
    id: canceled.join(','),
    status: 'canceled',
    status_description: `Canceled ${canceled.length} pending order(s) of ${symbol}`,
  };
}

/** The percent of each position a close takes (undefined: all), refused before any call unless a percent. */
export function closePercent(order: Pick<Order, 'quantity' | 'quantity_type'>): number | undefined {
  const percent = order.quantity_type === 'percent_of_position' ? order.quantity : undefined;
  if (order.quantity !== undefined && percent === undefined)
    throw fail('InvalidOrder', 'close takes no quantity, or quantity_type percent_of_position');
  return percent;
}

/**
 * Closes the symbol's positions after canceling its pending orders, or `percent` of each
 * (closePercent) canceling only the exits larger than what is left (partial-close.ts).
 */
export async function closeSymbol(
  ctx: BrokerContext,
  http: HttpClient,
  link: MetaApiLink,
  symbol: string,
  percent?: number,
): Promise<OrderResponse> {
  if (percent !== undefined && percent < 100) {
    const held = await symbolItems(http, link, 'positions', symbol);
    if (held.length) {
      const rule = await lotRule(http, link, symbol);
      // A part too small to close anything is refused before anything is sent.
      if (!held.some((position) => partOf(position, percent, rule) > 0)) throw tooSmall(symbol, percent, rule);
      return closePart(ctx, http, link, symbol, held, percent, rule);
    }
  }
  const canceled = await cancelPending(ctx, http, link, symbol);
  const positions = await symbolItems(http, link, 'positions', symbol);
  if (!positions.length) {
    if (!canceled.length) throw fail('InvalidOrder', `no position or pending order of ${symbol} to close`);
    return {
      id: canceled.join(','),
      status: 'canceled',
      status_description: `No position in ${symbol}; canceled ${canceled.length} pending order(s)`,
    };
  }
  // The symbol's pending orders (its stop losses and take profits among them) are gone by now: a
  // close refused past here says so.
  try {
    const result = await sendTrade(ctx, http, link, { actionType: 'POSITIONS_CLOSE_SYMBOL', symbol });
    const id = result.orderId ?? result.positionId ?? positions.map((p) => stringField(p, 'id')).join(',');
    return { id, status: 'filled', status_description: `Closed ${positions.length} position(s) of ${symbol}` };
  } catch (error) {
    throw closeFailedAfterCancel(error, symbol, canceled);
  }
}

/** Balance, equity and free margin; positions per symbol, long positive, short negative. */
export async function holdingsOf(http: HttpClient, link: MetaApiLink): Promise<Holdings> {
  const path = accountPath(link.metaApiId);
  const [info, positions] = await Promise.all([
    http.request({ path: `${path}/account-information` }),
    http.request({ path: `${path}/positions` }),
  ]);
  const bySymbol = new Map<string, { quantity: number; lots: number; cost: number }>();
  for (const position of listOf(positions.body)) {
    const symbol = stringField(position, 'symbol') ?? '';
    const volume = decimalField(position, 'volume') ?? 0;
    const held = bySymbol.get(symbol) ?? { quantity: 0, lots: 0, cost: 0 };
    held.quantity += stringField(position, 'type') === 'POSITION_TYPE_SELL' ? -volume : volume;
    held.lots += volume;
    held.cost += volume * (decimalField(position, 'openPrice') ?? 0);
    bySymbol.set(symbol, held);
  }
  const optional = (key: string, value: number | undefined) => (value === undefined ? {} : { [key]: value });
  return {
    ...optional('cash', decimalField(info.body, 'balance')),
    ...optional('equity', decimalField(info.body, 'equity')),
    ...optional('buyingPower', decimalField(info.body, 'freeMargin')),
    currency: stringField(info.body, 'currency') ?? 'USD',
    positions: [...bySymbol].map(([symbol, held]) => ({
      symbol,
      quantity: Number(held.quantity.toFixed(8)),
      ...(held.lots > 0 ? { averagePrice: Number((held.cost / held.lots).toFixed(8)) } : {}),
    })),
  };
}
