// cTrader's orders as our order responses: a ProtoOAOrder, or the order of an execution event.
//   {"orderId": 68412345, "orderStatus": 2, "executionPrice": 1.08512, …} → {id: "68412345", status: "filled", price: 1.08512}
import type { OrderResponse } from '@router/orders';
import { asRecord, decimalField, type JsonRecord, stringField } from '../../core/json-read.ts';
import { EXECUTION } from './errors.ts';

const STATUS: Record<number, { status: OrderResponse['status']; description?: string }> = {
  1: { status: 'accepted' },
  2: { status: 'filled' },
  3: { status: 'rejected', description: 'Rejected by cTrader' },
  4: { status: 'canceled', description: 'Expired' },
  5: { status: 'canceled' },
};

/** A ProtoOAOrder (with the deal that filled it, when known) as our order response. */
export function orderResponse(order: JsonRecord, deal?: JsonRecord): OrderResponse {
  const id = stringField(order, 'orderId') ?? '';
  const known = STATUS[decimalField(order, 'orderStatus') ?? 0] ?? { status: 'accepted' };
  const price = decimalField(deal, 'executionPrice') || decimalField(order, 'executionPrice');
  const executed = decimalField(order, 'executedVolume') ?? 0;
  const partly = known.status === 'accepted' && executed > 0;
  const description = partly ? `Partially filled: ${executed / 100} units` : known.description;
  return {
    id,
    status: known.status,
    ...(description ? { status_description: description } : {}),
    ...(price && (known.status === 'filled' || partly) ? { price } : {}),
  };
}

/** What an execution event says of its order. */
export function responseOf(event: JsonRecord): OrderResponse {
  const order = asRecord(event.order) ?? {};
  const response = orderResponse(order, asRecord(event.deal));
  if (decimalField(event, 'executionType') === EXECUTION.ORDER_PARTIAL_FILL && response.status === 'accepted') {
    const price = decimalField(asRecord(event.deal), 'executionPrice');
    return { ...response, status_description: 'Partially filled', ...(price ? { price } : {}) };
  }
  return response;
}
