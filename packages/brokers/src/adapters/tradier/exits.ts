// close and cancel at Tradier, which has no close-position call: cancel the symbol's open orders,
// then a market order for the position from GET /v1/accounts/{id}/positions (a close of part of
// the position keeps the open orders, the exits of the part still held, cut to that part):
//   {"positions": {"position": {"symbol": "AAPL", "quantity": 10, "cost_basis": 1874.4, …}}}   ("null" when none)

import type { Duration, Order, OrderAction, OrderResponse } from '@router/orders';
import { cancelEach } from '../../core/cancel-each.ts';
import { BrokerError } from '../../core/errors.ts';
import { exitsCutAnswer, exitsNotCutAnswer } from '../../core/exits-cut.ts';
import type { HttpClient } from '../../core/http.ts';
import { decimalField, listOf, stringField } from '../../core/json-read.ts';
import { accountPath } from './client.ts';
import { TRADIER_TITLE } from './descriptor.ts';
import { fromPlacement, toTradierForm, tradierSymbol } from './mapper.ts';

const OPEN = new Set(['open', 'partially_filled', 'pending']);

/** Orders asked for per page (Tradier lists 25 unless told), and pages read at most. */
const PAGE_SIZE = 100;
const MAX_PAGES = 10;

/**
 * The orders of the day (and open ones), tags included, page by page (GET …/orders?page=&limit=).
 * `complete` is false when there were more pages than we read: what is not listed is not proved absent.
 */
export async function listOrders(http: HttpClient, accountId: string) {
  const orders: unknown[] = [];
  const seen = new Set<string>();
  for (let page = 1; page <= MAX_PAGES; page++) {
    const answer = await http.request({
      path: accountPath(accountId, '/orders'),
      query: { includeTags: true, page, limit: PAGE_SIZE },
    });
    const listed = listOf((answer.body as { orders?: { order?: unknown } } | undefined)?.orders?.order);
    // A page of nothing new (a Tradier that ignores paging lists it all each time) ends it too.
    const fresh = listed.filter((order) => {
      const id = stringField(order, 'id') ?? '';
      return !seen.has(id) && Boolean(seen.add(id));
    });
    orders.push(...fresh);
    if (listed.length < PAGE_SIZE || fresh.length === 0) return { orders, complete: true };
  }
  return { orders, complete: false };
}

export async function listPositions(http: HttpClient, accountId: string) {
  const answer = await http.request({ path: accountPath(accountId, '/positions') });
  return listOf((answer.body as { positions?: { position?: unknown } } | undefined)?.positions?.position);
}

/** The key Tradier files an order or position under: the option symbol, else the ticker. */
export function instrumentOf(symbol: string): string {
  const { underlying, option } = tradierSymbol(symbol);
  return option ?? underlying;
}

/**
 * The instrument an order is filed under: its option symbol, else its ticker. A multi-leg order is
 * listed under its underlying with its options in its legs: it is no order of the stock.
 */
const orderInstrument = (order: unknown) =>
  stringField(order, 'class') === 'multileg'
    ? undefined
    : (stringField(order, 'option_symbol') ?? stringField(order, 'symbol'));

export async function cancelOpenOrders(http: HttpClient, accountId: string, symbol: string): Promise<string[]> {
  const instrument = instrumentOf(symbol);
  const targets = (await listOrders(http, accountId)).orders.filter(
    (order) => OPEN.has(stringField(order, 'status') ?? '') && orderInstrument(order) === instrument,
  );
  const ids = targets.map((order) => stringField(order, 'id') ?? '');
  return cancelEach(ids, instrument, async (id) => {
    const answer = await http.request({
      method: 'DELETE',
      path: accountPath(accountId, `/orders/${id}`),
      accept: [400],
    });
    return answer.status < 300;
  });
}

const EXIT_TYPES = new Set(['limit', 'stop', 'stop_limit']);

/** What an open order has still to fill. */
const remainingOf = (order: unknown) =>
  decimalField(order, 'remaining_quantity') ??
  (decimalField(order, 'quantity') ?? 0) - (decimalField(order, 'exec_quantity') ?? 0);

/**
 * After a close of part of the position, its exits (the instrument's open limit and stop orders
 * on the closing side) are cut to the `left` still held: sized for the whole position, a stop
 * triggered later sold more than was held (a short opened, or the exit refused and the rest left
 * unprotected). Tradier modifies no quantity (PUT …/orders/{id} takes type, duration, price and
 * stop), so each larger exit is canceled, then sent again for what is left with its type,
 * duration and prices, untagged (it is no signal's). Canceled first: for a moment the rest has
 * no exit, never two. The close stands whatever happens here: a failure is told in its answer.
 */
export async function fitExits(
  http: HttpClient,
  accountId: string,
  closing: Order,
  left: number,
  answer: OrderResponse,
): Promise<OrderResponse> {
  const instrument = instrumentOf(closing.symbol);
  const replaced: string[] = [];
  try {
    const exits = (await listOrders(http, accountId)).orders.filter(
      (order) =>
        OPEN.has(stringField(order, 'status') ?? '') &&
        orderInstrument(order) === instrument &&
        stringField(order, 'side') === closing.action &&
        EXIT_TYPES.has(stringField(order, 'type') ?? '') &&
        remainingOf(order) > left,
    );
    for (const exit of exits) {
      const id = stringField(exit, 'id') ?? '';
      const canceled = await http.request({
        method: 'DELETE',
        path: accountPath(accountId, `/orders/${encodeURIComponent(id)}`),
        accept: [400],
      });
      // Filled or canceled meanwhile: nothing to cut.
      if (canceled.status >= 300) continue;
      const price = decimalField(exit, 'price');
      const stop = decimalField(exit, 'stop_price');
      const order: Order = {
        symbol: instrument,
        class: closing.class,
        action: closing.action,
        quantity: left,
        quantity_type: 'fixed',
        type: (stringField(exit, 'type') ?? 'stop') as Order['type'],
        duration: (stringField(exit, 'duration') ?? 'day') as Duration,
        ...(price !== undefined ? { limit_price: price } : {}),
        ...(stop !== undefined ? { stop_price: stop } : {}),
      };
      const form = toTradierForm(order, undefined);
      const sent = await http.request({ method: 'POST', path: accountPath(accountId, '/orders'), form });
      replaced.push(`${id} → ${fromPlacement(sent.body).id}`);
    }
  } catch (error) {
    return exitsNotCutAnswer(answer, `the ${left} left`, error, replaced);
  }
  return exitsCutAnswer(answer, `the ${left} left`, replaced);
}

/**
 * The market order that flattens (or with a quantity or percent_of_position reduces) the position,
 * `partial` when it leaves some of it held (`left`); undefined if none.
 */
export async function closingOrder(
  http: HttpClient,
  accountId: string,
  symbol: string,
  part?: Pick<Order, 'quantity' | 'quantity_type'>,
): Promise<(Order & { partial: boolean; left: number }) | undefined> {
  const instrument = instrumentOf(symbol);
  const position = (await listPositions(http, accountId)).find((p) => stringField(p, 'symbol') === instrument);
  const held = decimalField(position, 'quantity') ?? 0;
  if (held === 0) return undefined;
  let quantity = Math.abs(held);
  if (part?.quantity !== undefined) {
    if (part.quantity_type === 'percent_of_position') {
      // Cut down, never up: a part too small for one share or contract is refused, not rounded up
      // (10 % of 5 shares closed one, 20 %).
      quantity = Math.floor((quantity * part.quantity) / 100);
      if (quantity === 0)
        throw new BrokerError(
          'InvalidOrder',
          TRADIER_TITLE,
          `${part.quantity} % of ${Math.abs(held)} in ${instrument} is less than one share or contract`,
        );
    } else if (part.quantity_type === 'fixed') quantity = Math.min(quantity, part.quantity);
    else throw new BrokerError('InvalidOrder', TRADIER_TITLE, 'close takes a fixed quantity or percent_of_position');
  }
  const isOption = instrument !== tradierSymbol(symbol).underlying;
  const action: OrderAction = isOption
    ? held > 0
      ? 'sell_to_close'
      : 'buy_to_close'
    : held > 0
      ? 'sell'
      : 'buy_to_cover';
  return {
    symbol: instrument,
    class: isOption ? 'option' : 'stock',
    action,
    quantity,
    quantity_type: 'fixed',
    type: 'market',
    duration: 'day',
    partial: quantity < Math.abs(held),
    left: Math.abs(held) - quantity,
  };
}
