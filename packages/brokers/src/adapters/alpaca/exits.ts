// close and cancel signals at Alpaca: cancel the symbol's open orders, and for close liquidate
// the position with DELETE /v2/positions/{symbol} (Alpaca sizes it, long or short, fractions too);
// a close of part keeps the open orders, its exits cut to what is left. A repeated close finds no
// position, so it cannot close twice.
import { type Order, type OrderResponse, parseSymbol } from '@router/orders';
import { cancelEach } from '../../core/cancel-each.ts';
import { BrokerError } from '../../core/errors.ts';
import { closeFailedAfterCancel, cutEach, exitsCutOutcome } from '../../core/exits-cut.ts';
import type { HttpClient } from '../../core/http.ts';
import { decimalField, decimalString, listOf, quantityString, stringField } from '../../core/json-read.ts';
import { ALPACA_TITLE } from './descriptor.ts';
import { alpacaSymbol, fromAlpacaOrder, positionSymbol } from './mapper.ts';

/** The open orders of a symbol. */
async function openOrdersOf(http: HttpClient, symbol: string, orderClass: Order['class']) {
  const wanted = positionSymbol(symbol, orderClass);
  const open = await http.request({
    path: '/v2/orders',
    query: { status: 'open', symbols: alpacaSymbol(symbol, orderClass), limit: 500 },
  });
  return listOf(open.body).filter((order) => stringField(order, 'symbol')?.replace('/', '') === wanted);
}

/** Cancels the open orders of a symbol; returns their ids. Orders that filled meanwhile are skipped. */
export async function cancelOpenOrders(
  http: HttpClient,
  symbol: string,
  orderClass: Order['class'],
): Promise<string[]> {
  const ids = (await openOrdersOf(http, symbol, orderClass))
    .map((order) => stringField(order, 'id'))
    .filter((id): id is string => id !== undefined);
  return cancelEach(ids, alpacaSymbol(symbol, orderClass), async (id) => {
    const answer = await http.request({
      method: 'DELETE',
      path: `/v2/orders/${encodeURIComponent(id)}`,
      accept: [404, 422],
    });
    return answer.status < 300;
  });
}

export async function cancelSymbol(http: HttpClient, order: Order, clientOrderId: string): Promise<OrderResponse> {
  const canceled = await cancelOpenOrders(http, order.symbol, order.class);
  return {
    id: canceled.join(',') || clientOrderId,
    status: 'canceled',
    status_description: `Canceled ${canceled.length} open order(s) of ${alpacaSymbol(order.symbol, order.class)}`,
  };
}

/**
 * Liquidates all of a position (its open orders canceled first: a flat position keeps no exits),
 * or `qty` / `percentage` of it (closePartOf).
 */
export async function closeSymbol(
  http: HttpClient,
  symbol: string,
  orderClass: Order['class'],
  part?: { qty: number } | { percentage: number },
): Promise<OrderResponse> {
  if (part) {
    const closed = await closePartOf(http, symbol, orderClass, part);
    if (closed) return closed;
  }
  const canceled = await cancelOpenOrders(http, symbol, orderClass);
  const answer = await http
    .request({
      method: 'DELETE',
      path: `/v2/positions/${encodeURIComponent(positionSymbol(symbol, orderClass))}`,
      ...(part ? { query: partQuery(part) } : {}),
      accept: [404],
    })
    .catch((error: unknown) => {
      throw closeFailedAfterCancel(error, positionSymbol(symbol, orderClass), canceled);
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

const partQuery = (part: { qty: number } | { percentage: number }) =>
  'qty' in part ? { qty: quantityString(part.qty) } : { percentage: decimalString(part.percentage) };

/**
 * A close of part of the position keeps the symbol's open orders: they include the stop loss and
 * take profit of the part still held. Each exit (an open order on the closing side) larger than
 * what is left is cut to it first, with Alpaca's replace (PATCH /v2/orders/{id} {"qty"}: a new
 * order, the old one replaced): sized for the whole position, a stop triggered later sold more than
 * was held (a short opened); and Alpaca counts the shares of open orders as not available to sell
 * (Position.qty_available), so the close could not take them before. Then the part is liquidated.
 * The part of a percentage is worked out here (sent as a qty), cut down to whole shares for a whole
 * position (never rounded up), so that what is left is known. Undefined when the part is all of the position, or
 * there is none: the whole close then.
 */
async function closePartOf(
  http: HttpClient,
  symbol: string,
  orderClass: Order['class'],
  part: { qty: number } | { percentage: number },
): Promise<OrderResponse | undefined> {
  const key = positionSymbol(symbol, orderClass);
  const position = await http.request({ path: `/v2/positions/${encodeURIComponent(key)}`, accept: [404] });
  const signed = position.status === 404 ? undefined : decimalField(position.body, 'qty');
  if (!signed) return undefined;
  const held = Math.abs(signed);
  const share = 'qty' in part ? part.qty : (held * part.percentage) / 100;
  const whole = 'percentage' in part && Number.isInteger(held);
  const qty = Number(quantityString(whole ? Math.floor(share + 1e-9) : share));
  if (!(qty > 0))
    throw new BrokerError('InvalidOrder', ALPACA_TITLE, `${decimalString(share)} of ${held} ${key} is not a share`);
  if (qty >= held) return undefined;
  const left = Number(quantityString(held - qty));
  const side = signed > 0 ? 'sell' : 'buy';
  const outcome = await cutEach(
    async () =>
      (await openOrdersOf(http, symbol, orderClass)).filter(
        (order) =>
          stringField(order, 'side') === side &&
          stringField(order, 'type') !== 'market' &&
          (decimalField(order, 'qty') ?? 0) - (decimalField(order, 'filled_qty') ?? 0) > left,
      ),
    async (exit) => {
      const id = stringField(exit, 'id') ?? '';
      const replaced = await http.request({
        method: 'PATCH',
        path: `/v2/orders/${encodeURIComponent(id)}`,
        json: { qty: quantityString(left) },
      });
      return `${id} → ${stringField(replaced.body, 'id') ?? 'a new order'}`;
    },
  );
  const answer = await http.request({
    method: 'DELETE',
    path: `/v2/positions/${encodeURIComponent(key)}`,
    query: { qty: quantityString(qty) },
  });
  return exitsCutOutcome(fromAlpacaOrder(answer.body, true), `the ${quantityString(left)} left`, outcome);
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
