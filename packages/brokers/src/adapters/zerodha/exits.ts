// Cancel and close signals at Kite. Kite has no close call: close cancels the symbol's open
// orders, then sends the opposite market order for what is held of each product (GET
// /portfolio/positions and /portfolio/holdings), tagged with our id like any order; a close of
// part of the position keeps the open orders, cut to the part still held (its exits). A cover order
// position (product CO) is exited whole through its stop leg (DELETE with parent_order_id).

import type { Order, OrderResponse } from '@router/orders';
import type { BrokerContext, BrokerSession } from '../../core/broker.ts';
import { cancelEach } from '../../core/cancel-each.ts';
import { BrokerError } from '../../core/errors.ts';
import { closeFailedAfterCancel, exitsCutAnswer, exitsNotCutAnswer } from '../../core/exits-cut.ts';
import { asRecord, decimalField, type JsonRecord, listOf, stringField } from '../../core/json-read.ts';
import type { KiteApi } from './api.ts';
import { ZERODHA_TITLE } from './descriptor.ts';
import { orderBook, orderState } from './lookup.ts';
import { kiteTag } from './mapper.ts';
import { cancelKiteOrder, submitOrder } from './orders.ts';
import { fromKiteOrder, isFinal } from './reader.ts';
import { instrumentKey, type KiteInstrument } from './symbols.ts';

const invalid = (message: string) => new BrokerError('InvalidOrder', ZERODHA_TITLE, message);

const sameInstrument = (order: JsonRecord, exchange: string, tradingsymbol: string) =>
  stringField(order, 'exchange') === exchange && stringField(order, 'tradingsymbol') === tradingsymbol;

/** Cancels the instrument's open orders; returns their ids. */
export async function cancelOpenOrders(
  api: KiteApi,
  ctx: BrokerContext,
  session: BrokerSession,
  exchange: string,
  tradingsymbol: string,
): Promise<string[]> {
  const open = (await orderBook(api, ctx, session)).filter(
    (order) => !isFinal(order) && sameInstrument(order, exchange, tradingsymbol),
  );
  // Stop legs of cover orders go with their entry: only entries are canceled.
  const byId = new Map(
    open.filter((o) => !stringField(o, 'parent_order_id')).map((o) => [stringField(o, 'order_id') ?? '', o] as const),
  );
  return cancelEach([...byId.keys()], instrumentKey(exchange, tradingsymbol), (id) =>
    cancelKiteOrder(api, ctx, session, byId.get(id) ?? {}),
  );
}

/** A cancel signal: the instrument's open orders canceled, their ids as the answer's. */
export async function cancelSymbol(
  api: KiteApi,
  ctx: BrokerContext,
  session: BrokerSession,
  instrument: KiteInstrument,
  clientOrderId: string,
): Promise<OrderResponse> {
  const { exchange, tradingsymbol } = instrument;
  const canceled = await cancelOpenOrders(api, ctx, session, exchange, tradingsymbol);
  return {
    id: canceled.join(',') || clientOrderId,
    status: 'canceled',
    status_description: `Canceled ${canceled.length} open order(s) of ${instrumentKey(exchange, tradingsymbol)}`,
  };
}

interface Held {
  product: string;
  /** Signed: negative is short. */
  quantity: number;
}

/**
 * What is held of the instrument, by product. Delivery (CNC) shares are the holding plus today's
 * CNC trades, which the day's positions show (a holding sold today is -N there until it settles);
 * other products are their net position.
 */
async function heldOf(api: KiteApi, ctx: BrokerContext, session: BrokerSession, exchange: string, symbol: string) {
  const [positions, holdings] = await Promise.all([
    api.call(ctx, session, { path: '/portfolio/positions' }),
    api.call(ctx, session, { path: '/portfolio/holdings' }),
  ]);
  const mine = listOf(asRecord(positions)?.net).filter((position) => sameInstrument(position, exchange, symbol));
  const held: Held[] = mine
    .filter((position) => stringField(position, 'product') !== 'CNC')
    .map((position) => ({
      product: stringField(position, 'product') ?? 'NRML',
      quantity: decimalField(position, 'quantity') ?? 0,
    }));
  const holding = listOf(holdings).find((item) => sameInstrument(item, exchange, symbol));
  const delivery =
    (decimalField(holding, 'quantity') ?? 0) +
    (decimalField(holding, 't1_quantity') ?? 0) +
    (decimalField(
      mine.find((position) => stringField(position, 'product') === 'CNC'),
      'quantity',
    ) ?? 0);
  if (delivery > 0) held.push({ product: 'CNC', quantity: delivery });
  return held.filter((item) => item.quantity !== 0);
}

/** How much of `held` a close with a quantity or percent_of_position takes. */
function closingQuantity(held: number, part: Pick<Order, 'quantity' | 'quantity_type'>): number {
  if (part.quantity === undefined) return held;
  // Cut down, never up: a part too small for one share is left (the close is refused if nothing is).
  if (part.quantity_type === 'percent_of_position') return Math.floor((held * part.quantity) / 100);
  if (part.quantity_type === 'fixed') return Math.min(held, part.quantity);
  throw invalid('close takes a fixed quantity or percent_of_position');
}

function tooSmall(part: Pick<Order, 'quantity'>, held: { quantity: number }[], key: string) {
  const total = held.reduce((sum, item) => sum + Math.abs(item.quantity), 0);
  return invalid(`${part.quantity} % of ${total} in ${key} is less than one share`);
}

export interface CloseOptions {
  /** A close of part of the position: quantity, or percent_of_position. */
  part?: Pick<Order, 'quantity' | 'quantity_type'>;
  /** Our id for the closing orders (a close signal's); none for a close asked without a signal. */
  clientOrderId?: string;
  marketProtection?: string;
}

/** The quantity closed of each product held: a fixed quantity is what the close takes in all (the
 * products share it, in the order listed), a percentage is taken of each. */
function closingSizes(held: Held[], part: CloseOptions['part']): number[] {
  let left = part?.quantity_type === 'fixed' ? (part.quantity ?? 0) : Number.POSITIVE_INFINITY;
  return held.map(({ quantity }) => {
    const size = Math.max(0, Math.min(left, part ? closingQuantity(Math.abs(quantity), part) : Math.abs(quantity)));
    left -= size;
    return size;
  });
}

export async function closeSymbol(
  api: KiteApi,
  ctx: BrokerContext,
  session: BrokerSession,
  instrument: KiteInstrument,
  options: CloseOptions = {},
): Promise<OrderResponse> {
  const { exchange, tradingsymbol } = instrument;
  const key = instrumentKey(exchange, tradingsymbol);
  const { part } = options;
  // A close of part of the position leaves the instrument's open orders alone: they include the
  // stop-loss and take-profit orders of the part still held, and a part Kite refuses (derivatives
  // not in lots) then changes nothing. A percentage too small for one share is refused here.
  // Only a close of all of it cancels them first (a flat position keeps no exits); the holdings
  // are read again after the cancels, which a fill may have changed.
  if (part) {
    const before = await heldOf(api, ctx, session, exchange, tradingsymbol);
    const sizes = closingSizes(before, part);
    const taken = sizes.reduce((sum, size) => sum + size, 0);
    if (before.length && taken <= 0 && part.quantity_type === 'percent_of_position') throw tooSmall(part, before, key);
    const total = before.reduce((sum, item) => sum + Math.abs(item.quantity), 0);
    if (taken > 0 && taken < total) {
      const answer = await sendCloses(api, ctx, session, instrument, before, sizes, options);
      return answer.status === 'rejected' ? answer : fitExits(api, ctx, session, instrument, before, sizes, answer);
    }
  }
  const canceled = await cancelOpenOrders(api, ctx, session, exchange, tradingsymbol);
  const held = await heldOf(api, ctx, session, exchange, tradingsymbol);
  if (!held.length) {
    if (!canceled.length) throw invalid(`no position in ${key}`);
    return {
      id: canceled.join(','),
      status: 'canceled',
      status_description: `No position in ${key}; canceled ${canceled.length} open order(s)`,
    };
  }
  return sendCloses(api, ctx, session, instrument, held, closingSizes(held, part), options).catch((error: unknown) => {
    throw closeFailedAfterCancel(error, key, canceled);
  });
}

/**
 * After a close of part of the position, its open exits (the instrument's orders on the closing
 * side, of each product) are cut to what is left of that product: sized for the whole position, a
 * stop triggered later sold more than was held, opening a position the other way (MIS, NRML).
 * PUT /orders/{variety}/{order_id} takes the order's new total quantity (what filled, plus what is
 * left); an exit of a product closed whole is canceled. The close stands either way: a failure
 * here is told in its answer, not thrown.
 */
async function fitExits(
  api: KiteApi,
  ctx: BrokerContext,
  session: BrokerSession,
  instrument: KiteInstrument,
  held: Held[],
  sizes: number[],
  answer: OrderResponse,
): Promise<OrderResponse> {
  const { exchange, tradingsymbol } = instrument;
  const fitted: string[] = [];
  try {
    const open = (await orderBook(api, ctx, session)).filter(
      (order) =>
        !isFinal(order) && sameInstrument(order, exchange, tradingsymbol) && !stringField(order, 'parent_order_id'),
    );
    for (const [index, { product, quantity }] of held.entries()) {
      const left = Math.abs(quantity) - (sizes[index] ?? 0);
      const closing = quantity > 0 ? 'SELL' : 'BUY';
      for (const order of open) {
        if (stringField(order, 'product') !== product || stringField(order, 'transaction_type') !== closing) continue;
        if ((decimalField(order, 'pending_quantity') ?? 0) <= left) continue;
        if (left <= 0) {
          fitted.push(await cancelKiteOrder(api, ctx, session, order));
          continue;
        }
        const id = stringField(order, 'order_id') ?? '';
        const variety = stringField(order, 'variety') ?? 'regular';
        const quantity = String((decimalField(order, 'filled_quantity') ?? 0) + left);
        const path = `/orders/${encodeURIComponent(variety)}/${encodeURIComponent(id)}`;
        await api.call(ctx, session, { method: 'PUT', path, form: { quantity } }, 'order');
        fitted.push(id);
      }
    }
  } catch (error) {
    return exitsNotCutAnswer(answer, 'what is left', error);
  }
  return exitsCutAnswer(answer, 'what is left', fitted);
}

/** The opposite market order for `sizes` of each product `held`, tagged with our id when there is one. */
async function sendCloses(
  api: KiteApi,
  ctx: BrokerContext,
  session: BrokerSession,
  instrument: KiteInstrument,
  held: Held[],
  sizes: number[],
  options: CloseOptions,
): Promise<OrderResponse> {
  const { exchange, tradingsymbol } = instrument;
  const key = instrumentKey(exchange, tradingsymbol);
  const { part } = options;
  // A cover order position (product CO, which Kite takes only as variety co) is exited whole
  // through its stop leg: DELETE of the leg with its parent_order_id squares it off at market.
  const covered = held.findIndex((item, index) => item.product === 'CO' && (sizes[index] ?? 0) > 0);
  const coverSize = sizes[covered] ?? 0;
  if (covered >= 0 && coverSize < Math.abs(held[covered]?.quantity ?? 0))
    throw invalid(`a cover order position in ${key} is exited whole at Kite, not in part`);
  const answers: OrderResponse[] = [];
  for (const [index, { product, quantity }] of held.entries()) {
    const size = sizes[index] ?? 0;
    if (size <= 0) continue;
    if (product === 'CO') {
      answers.push(await exitCover(api, ctx, session, instrument));
      continue;
    }
    const form = {
      tradingsymbol,
      exchange,
      transaction_type: quantity > 0 ? 'SELL' : 'BUY',
      order_type: 'MARKET',
      quantity: String(size),
      product,
      validity: 'DAY',
      market_protection: options.marketProtection ?? '-1',
      ...(options.clientOrderId ? { tag: kiteTag(options.clientOrderId) } : {}),
    };
    answers.push(await submitOrder(api, ctx, session, 'regular', form));
  }
  const [first] = answers;
  if (!first) {
    if (part?.quantity_type !== 'percent_of_position') throw invalid(`no position in ${key}`);
    throw tooSmall(part, held, key);
  }
  if (answers.length === 1) return first;
  const ids = answers.map((answer) => answer.id).join(', ');
  return { ...first, status_description: `${first.status_description} (one order per product: ${ids})` };
}

/** Exits the instrument's cover order position through its open stop legs; the first leg's state. */
async function exitCover(
  api: KiteApi,
  ctx: BrokerContext,
  session: BrokerSession,
  instrument: KiteInstrument,
): Promise<OrderResponse> {
  const { exchange, tradingsymbol } = instrument;
  const legs = (await orderBook(api, ctx, session)).filter(
    (order) =>
      !isFinal(order) &&
      sameInstrument(order, exchange, tradingsymbol) &&
      stringField(order, 'variety') === 'co' &&
      Boolean(stringField(order, 'parent_order_id')),
  );
  const ids: string[] = [];
  for (const leg of legs) ids.push(await cancelKiteOrder(api, ctx, session, leg));
  const [first] = ids;
  if (!first)
    throw invalid(`no open stop leg of the cover order position in ${instrumentKey(exchange, tradingsymbol)} to exit`);
  const state = await orderState(api, ctx, session, first).catch(() => undefined);
  return state
    ? fromKiteOrder(state)
    : { id: first, status: 'accepted', status_description: 'Zerodha cover order exit sent' };
}
