// Cancel and close at Webull. Cancels go by client_order_id only (POST /openapi/trade/order/cancel),
// so an order named by Webull's id is looked up among the open orders first. Webull has no close
// call: close cancels the symbol's open orders and sends the opposite market order for the
// position (GET /openapi/assets/positions), with our id; a close of part of the position keeps
// the open orders (the exits of the part still held), cut to that part (crypto ones, which
// Webull cannot change, canceled and placed again for it).

import type { Order, OrderResponse } from '@router/orders';
import type { BrokerContext, BrokerSession } from '../../core/broker.ts';
import { cancelEach } from '../../core/cancel-each.ts';
import { BrokerError } from '../../core/errors.ts';
import { closeFailedAfterCancel, exitsCutAnswer, exitsNotCutAnswer } from '../../core/exits-cut.ts';
import { asRecord, decimalField, type JsonRecord, listOf, quantityString, stringField } from '../../core/json-read.ts';
import type { WebullApi } from './api.ts';
import { WEBULL_TITLE } from './descriptor.ts';
import { webullInstrument } from './instruments.ts';
import { toWebullPlacement, webullClientId } from './mapper.ts';
import { submitPlacement } from './orders.ts';

const PAGE = 100;
const invalid = (message: string) => new BrokerError('InvalidOrder', WEBULL_TITLE, message);

/** Every open order of the account (each entry: the orders of one client id, a combo's several). */
export async function openOrders(api: WebullApi, ctx: BrokerContext, session: BrokerSession, accountId: string) {
  const orders: JsonRecord[] = [];
  let last: string | undefined;
  for (let page = 0; page < 20; page++) {
    const query = { account_id: accountId, page_size: String(PAGE), ...(last ? { last_client_order_id: last } : {}) };
    const entries = listOf((await api.call(ctx, session, { path: '/openapi/trade/order/open', query })).body);
    orders.push(...entries.flatMap((entry) => listOf(asRecord(entry)?.orders)));
    last = stringField(entries.at(-1), 'client_order_id');
    if (entries.length < PAGE || !last) break;
  }
  return orders;
}

export async function cancelByClientId(
  api: WebullApi,
  ctx: BrokerContext,
  session: BrokerSession,
  accountId: string,
  clientId: string,
) {
  const json = { account_id: accountId, client_order_id: clientId };
  return (await api.call(ctx, session, { method: 'POST', path: '/openapi/trade/order/cancel', json }, 'order')).body;
}

/**
 * Whether an open order is one of `symbol`'s. Option orders carry the underlying as their symbol
 * and the option in their legs: they are no orders of the stock.
 */
const ofSymbol = (symbol: string) => (order: JsonRecord) =>
  stringField(order, 'symbol') === symbol &&
  stringField(order, 'instrument_type') !== 'OPTION' &&
  listOf(order.legs).length === 0;

async function cancelSymbolOrders(
  api: WebullApi,
  ctx: BrokerContext,
  session: BrokerSession,
  accountId: string,
  symbol: string,
) {
  const mine = (await openOrders(api, ctx, session, accountId)).filter(ofSymbol(symbol));
  // Canceled by our id, told by Webull's.
  const clientIds = new Map(
    mine.map((order) => [stringField(order, 'order_id') ?? '', stringField(order, 'client_order_id') ?? '']),
  );
  return cancelEach([...clientIds.keys()], symbol, (id) =>
    cancelByClientId(api, ctx, session, accountId, clientIds.get(id) ?? ''),
  );
}

/** Webull's symbol of a stock, future or crypto order (options close with sell_to_close). */
function positionSymbol(order: Pick<Order, 'symbol' | 'class'>): string {
  if (order.class === 'option') throw invalid('close an option position with buy_to_close or sell_to_close');
  return webullInstrument(order.symbol, order.class).symbol;
}

export async function cancelSymbol(
  api: WebullApi,
  ctx: BrokerContext,
  session: BrokerSession,
  accountId: string,
  order: Order,
  clientOrderId: string,
): Promise<OrderResponse> {
  const symbol = order.class === 'option' ? order.symbol : positionSymbol(order);
  const canceled = await cancelSymbolOrders(api, ctx, session, accountId, symbol);
  return {
    id: canceled.join(',') || clientOrderId,
    status: 'canceled',
    status_description: `Canceled ${canceled.length} open order(s) of ${symbol}`,
  };
}

/** `value` cut (never rounded up) to 8 decimals; the hair of tolerance absorbs binary noise. */
const down8 = (value: number) => Number((Math.floor(value * 1e8 + 1e-6) / 1e8).toFixed(8));

/** What a close takes of the `held`; futures (`whole`) in whole contracts, cut down, never up. */
function closingQuantity(held: number, order: Pick<Order, 'quantity' | 'quantity_type'>, whole: boolean): number {
  if (order.quantity === undefined) return held;
  if (order.quantity_type === 'percent_of_position') {
    const share = (held * order.quantity) / 100;
    const part = whole ? Math.floor(share + 1e-9) : down8(share);
    if (!(part > 0)) throw invalid(`${order.quantity} % of ${held} is less than the smallest quantity`);
    return part;
  }
  if (order.quantity_type === 'fixed') return Math.min(held, order.quantity);
  throw invalid('close takes a fixed quantity or percent_of_position');
}

export async function closeSymbol(
  api: WebullApi,
  ctx: BrokerContext,
  session: BrokerSession,
  accountId: string,
  order: Order,
  clientOrderId?: string,
): Promise<OrderResponse> {
  const symbol = positionSymbol(order);
  const whole = webullInstrument(order.symbol, order.class).instrumentType === 'FUTURES';
  const heldNow = async () => {
    const query = { account_id: accountId };
    const positions = listOf((await api.call(ctx, session, { path: '/openapi/assets/positions', query })).body);
    return decimalField(
      positions.find((position) => stringField(position, 'symbol') === symbol),
      'quantity',
    );
  };
  // A close of part of the position leaves the symbol's open orders alone: they include the
  // stop-loss and take-profit orders of the part still held, which a trader closing half expects
  // to keep. Only a close of all of it cancels them first (a flat position keeps no exits).
  if (order.quantity !== undefined) {
    const held = await heldNow();
    if (held) {
      const quantity = closingQuantity(Math.abs(held), order, whole);
      if (quantity < Math.abs(held)) {
        const answer = await submitClose(api, ctx, session, accountId, order, held, quantity, clientOrderId);
        if (answer.status === 'rejected') return answer;
        return fitExits(api, ctx, session, accountId, symbol, held, Math.abs(held) - quantity, answer);
      }
    }
  }
  const canceled = await cancelSymbolOrders(api, ctx, session, accountId, symbol);
  const held = await heldNow();
  if (!held) {
    if (!canceled.length) throw invalid(`no position in ${symbol}`);
    return {
      id: canceled.join(','),
      status: 'canceled',
      status_description: `No position in ${symbol}; canceled ${canceled.length} open order(s)`,
    };
  }
  return submitClose(
    api,
    ctx,
    session,
    accountId,
    order,
    held,
    closingQuantity(Math.abs(held), order, whole),
    clientOrderId,
  ).catch((error: unknown) => {
    throw closeFailedAfterCancel(error, symbol, canceled);
  });
}

/**
 * After a close of part of the position, its exits (the symbol's open orders on the closing side)
 * are cut to the `left` still held: sized for the whole position, a stop triggered later sold more
 * than was held, opening a short. POST /openapi/trade/order/replace takes the order's new quantity
 * (what filled, plus what is left; WIRE.md §7); a crypto exit, which it refuses, is placed again
 * (placeAgain). The close stands whatever happens here: a failure
 * is told in its answer, not thrown.
 */
async function fitExits(
  api: WebullApi,
  ctx: BrokerContext,
  session: BrokerSession,
  accountId: string,
  symbol: string,
  held: number,
  left: number,
  answer: OrderResponse,
): Promise<OrderResponse> {
  const closing = held > 0 ? 'SELL' : 'BUY';
  const fitted: string[] = [];
  try {
    const exits = (await openOrders(api, ctx, session, accountId)).filter(
      (order) =>
        ofSymbol(symbol)(order) &&
        stringField(order, 'side') === closing &&
        (decimalField(order, 'quantity') ?? 0) - (decimalField(order, 'filled_quantity') ?? 0) > left,
    );
    for (const exit of exits) {
      if (stringField(exit, 'instrument_type') === 'CRYPTO') {
        fitted.push(await placeAgain(api, ctx, session, accountId, exit, left));
        continue;
      }
      const quantity = quantityString((decimalField(exit, 'filled_quantity') ?? 0) + left);
      const json = {
        account_id: accountId,
        modify_orders: [{ client_order_id: stringField(exit, 'client_order_id') ?? '', quantity }],
      };
      await api.call(ctx, session, { method: 'POST', path: '/openapi/trade/order/replace', json }, 'order');
      fitted.push(stringField(exit, 'order_id') ?? '');
    }
  } catch (error) {
    return exitsNotCutAnswer(answer, `the ${left} left`, error);
  }
  return exitsCutAnswer(answer, `the ${left} left`, fitted);
}

/** What a crypto exit placed again keeps of the open order. */
const CRYPTO_TERMS = [
  'symbol',
  'instrument_type',
  'market',
  'order_type',
  'limit_price',
  'stop_price',
  'side',
  'time_in_force',
] as const;

/**
 * Webull cannot change a crypto order (WIRE.md §7): a crypto exit is canceled and placed again for
 * the `left`, with its terms and an id derived from its own. Canceled first: for a moment what is
 * left has no exit, never two.
 */
async function placeAgain(
  api: WebullApi,
  ctx: BrokerContext,
  session: BrokerSession,
  accountId: string,
  exit: JsonRecord,
  left: number,
): Promise<string> {
  const clientId = stringField(exit, 'client_order_id') ?? '';
  await cancelByClientId(api, ctx, session, accountId, clientId);
  const terms = CRYPTO_TERMS.filter((key) => exit[key] !== undefined && exit[key] !== null).map((key) => [
    key,
    exit[key],
  ]);
  const again = webullClientId(`${clientId}cut${quantityString(left)}`);
  const order = {
    combo_type: 'NORMAL',
    client_order_id: again,
    ...Object.fromEntries(terms),
    quantity: quantityString(left),
    entrust_type: 'QTY',
  };
  const placement = { body: { account_id: accountId, new_orders: [order] }, category: 'US_CRYPTO' };
  const id = stringField(exit, 'order_id') ?? clientId;
  const placed = await submitPlacement(api, ctx, session, placement, again).catch((error: unknown) => {
    if (!(error instanceof BrokerError)) throw error;
    // Told, since what is left now has no exit.
    const told = `${error.brokerMessage}; ${id} was canceled to be placed again for the ${left} left, and was not: check the exits at the broker`;
    throw new BrokerError(error.kind, WEBULL_TITLE, told, { cause: error, outcomeUnknown: error.outcomeUnknown });
  });
  return `${id} → ${placed.id}`;
}

/** The opposite market order for `quantity` of the `held` position, with our id when there is one. */
function submitClose(
  api: WebullApi,
  ctx: BrokerContext,
  session: BrokerSession,
  accountId: string,
  order: Order,
  held: number,
  quantity: number,
  clientOrderId?: string,
): Promise<OrderResponse> {
  const closing: Order = {
    symbol: order.symbol,
    class: order.class,
    action: held > 0 ? 'sell' : 'buy_to_cover',
    quantity,
    quantity_type: 'fixed',
    type: 'market',
    duration: 'day',
  };
  const placement = toWebullPlacement(closing, accountId, clientOrderId ?? '');
  if (!clientOrderId) for (const entry of placement.body.new_orders) delete entry.client_order_id;
  return submitPlacement(api, ctx, session, placement, clientOrderId);
}
