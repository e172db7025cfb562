// Kite's answers read into ours. An order of the book or of its history (WIRE.md §6):
//   {"order_id":"171229000724687","status":"OPEN","status_message":null,"average_price":0,
//    "filled_quantity":0,"quantity":1,"tag":"sig…","variety":"regular","parent_order_id":null,…}
// Status words have spaces ("TRIGGER PENDING", "PUT ORDER REQ RECEIVED"); only COMPLETE,
// CANCELLED and REJECTED are final. A placement answers {"order_id"} only (with autoslice also
// "children", each an order id or an error: a partial success inside an HTTP 200).
import type { OrderResponse } from '@router/orders';
import { BrokerError } from '../../core/errors.ts';
import { asRecord, decimalField, type JsonRecord, listOf, stringField } from '../../core/json-read.ts';
import { ZERODHA_TITLE } from './descriptor.ts';
import { instrumentKey } from './symbols.ts';

const FINAL: Record<string, OrderResponse['status']> = {
  COMPLETE: 'filled',
  CANCELLED: 'canceled',
  REJECTED: 'rejected',
};

export function isFinal(order: JsonRecord): boolean {
  return (stringField(order, 'status') ?? '') in FINAL;
}

export function fromKiteOrder(order: JsonRecord): OrderResponse {
  const id = stringField(order, 'order_id');
  const status = stringField(order, 'status');
  if (!id || !status) throw new BrokerError('BrokerUnavailable', ZERODHA_TITLE, 'unexpected order in the answer');
  const filled = decimalField(order, 'filled_quantity') ?? 0;
  const quantity = decimalField(order, 'quantity') ?? 0;
  const price = decimalField(order, 'average_price');
  const reason = stringField(order, 'status_message');
  const progress = filled > 0 && filled < quantity ? `, ${filled} of ${quantity} filled` : '';
  return {
    id,
    status: FINAL[status] ?? 'accepted',
    status_description: `Zerodha order ${status.toLowerCase()}${progress}${reason ? `: ${reason}` : ''}`,
    ...(price !== undefined && price > 0 && filled > 0 ? { price } : {}),
  };
}

/** The current state of GET /orders/{id}: the last entry of the history. */
export function currentState(history: unknown): JsonRecord | undefined {
  return listOf(history).at(-1);
}

export function carriesTag(order: JsonRecord, tag: string): boolean {
  const tags = Array.isArray(order.tags) ? order.tags : [];
  return stringField(order, 'tag') === tag || tags.includes(tag);
}

/**
 * A placement's answer: the order id, and with autoslice what became of the slices (the children
 * that failed are named; the placement itself succeeded).
 */
export function placed(data: unknown): { id: string; slices: string } {
  const id = stringField(data, 'order_id');
  if (!id)
    throw new BrokerError('BrokerUnavailable', ZERODHA_TITLE, 'no order id in the answer', { outcomeUnknown: true });
  const children = listOf(asRecord(data)?.children);
  const failed = children.map((child) => asRecord(child.error)).filter((error) => error !== undefined);
  const refusals = failed.map((error) => stringField(error, 'message') ?? stringField(error, 'error_type')).join('; ');
  const slices = failed.length
    ? `; ${children.length - failed.length} of ${children.length} slices placed, refused: ${refusals}`
    : children.length
      ? `; ${children.length} slices`
      : '';
  return { id, slices };
}

/** What a placement answers before its state is known. */
export const received = (id: string, slices = ''): OrderResponse => ({
  id,
  status: 'accepted',
  status_description: `Zerodha order received${slices}`,
});

/** Holdings and day positions into ours: NSE:INFY, signed quantity, average price, value. */
export function positionsOf(holdings: unknown, positions: unknown) {
  const held = listOf(holdings)
    .map((item) => ({
      symbol: instrumentKey(stringField(item, 'exchange') ?? '', stringField(item, 'tradingsymbol') ?? ''),
      quantity: (decimalField(item, 'quantity') ?? 0) + (decimalField(item, 't1_quantity') ?? 0),
      averagePrice: decimalField(item, 'average_price'),
      lastPrice: decimalField(item, 'last_price'),
      multiplier: 1,
    }))
    .filter((item) => item.quantity !== 0);
  const open = listOf(asRecord(positions)?.net)
    .map((item) => ({
      symbol: instrumentKey(stringField(item, 'exchange') ?? '', stringField(item, 'tradingsymbol') ?? ''),
      quantity: decimalField(item, 'quantity') ?? 0,
      averagePrice: decimalField(item, 'average_price'),
      lastPrice: decimalField(item, 'last_price'),
      multiplier: decimalField(item, 'multiplier') ?? 1,
    }))
    .filter((item) => item.quantity !== 0);
  return [...held, ...open].map(({ symbol, quantity, averagePrice, lastPrice, multiplier }) => ({
    symbol,
    quantity,
    ...(averagePrice !== undefined ? { averagePrice } : {}),
    ...(lastPrice !== undefined ? { marketValue: quantity * lastPrice * multiplier } : {}),
  }));
}
