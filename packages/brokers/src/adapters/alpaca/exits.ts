// close and cancel signals at Alpaca: cancel the symbol's open orders, and for close liquidate
// the position with DELETE /v2/positions/{symbol} (Alpaca sizes it, long or short, fractions too).
// A repeated close finds no position, so it cannot close twice.
import { type Order, type OrderResponse, parseSymbol } from '@router/orders';
import { BrokerError } from '../../core/errors.ts';
import type { HttpClient } from '../../core/http.ts';
import { decimalString, listOf, quantityString, stringField } from '../../core/json-read.ts';
import { ALPACA_TITLE } from './descriptor.ts';
import { alpacaSymbol, fromAlpacaOrder, positionSymbol } from './mapper.ts';

/** Cancels the open orders of a symbol; returns their ids. Orders that filled meanwhile are skipped. */
export async function cancelOpenOrders(
  http: HttpClient,
  symbol: string,
  orderClass: Order['class'],
): Promise<string[]> {
  const wanted = positionSymbol(symbol, orderClass);
  const open = await http.request({
    path: '/v2/orders',
    query: { status: 'open', symbols: alpacaSymbol(symbol, orderClass), limit: 500 },
  });
  const ids = listOf(open.body)
    .filter((order) => stringField(order, 'symbol')?.replace('/', '') === wanted)
    .map((order) => stringField(order, 'id'))
    .filter((id): id is string => id !== undefined);
  const canceled: string[] = [];
  for (const id of ids) {
    const answer = await http.request({
      method: 'DELETE',
      path: `/v2/orders/${encodeURIComponent(id)}`,
      accept: [404, 422],
    });
    if (answer.status < 300) canceled.push(id);
  }
  return canceled;
}

export async function cancelSymbol(http: HttpClient, order: Order, clientOrderId: string): Promise<OrderResponse> {
  const canceled = await cancelOpenOrders(http, order.symbol, order.class);
  return {
    id: canceled.join(',') || clientOrderId,
    status: 'canceled',
    status_description: `Canceled ${canceled.length} open order(s) of ${alpacaSymbol(order.symbol, order.class)}`,
  };
}

/** Liquidates all of a position, or `qty` / `percentage` of it. */
export async function closeSymbol(
  http: HttpClient,
  symbol: string,
  orderClass: Order['class'],
  part?: { qty: number } | { percentage: number },
): Promise<OrderResponse> {
  const canceled = await cancelOpenOrders(http, symbol, orderClass);
  const query =
    part && 'qty' in part
      ? { qty: quantityString(part.qty) }
      : part
        ? { percentage: decimalString(part.percentage) }
        : undefined;
  const answer = await http.request({
    method: 'DELETE',
    path: `/v2/positions/${encodeURIComponent(positionSymbol(symbol, orderClass))}`,
    ...(query ? { query } : {}),
    accept: [404],
  });
  if (answer.status !== 404) return fromAlpacaOrder(answer.body, true);
  const message = stringField(answer.body, 'message') ?? 'position does not exist';
  if (!canceled.length) throw new BrokerError('InvalidOrder', ALPACA_TITLE, message);
  return {
    id: canceled.join(','),
    status: 'canceled',
    status_description: `No position in ${positionSymbol(symbol, orderClass)}; canceled ${canceled.length} open order(s)`,
  };
}

export function closePart(order: Order): { qty: number } | { percentage: number } | undefined {
  if (order.quantity === undefined) return undefined;
  if (order.quantity_type === 'percent_of_position') return { percentage: order.quantity };
  if (order.quantity_type === 'fixed') return { qty: order.quantity };
  throw new BrokerError('InvalidOrder', ALPACA_TITLE, `close takes a fixed quantity or percent_of_position`);
}

export function classOf(symbol: string): Order['class'] {
  const parsed = parseSymbol(symbol);
  return parsed.class === 'option' || parsed.class === 'crypto' ? parsed.class : 'stock';
}
