// IBKR's order answers as our OrderResponse (WIRE.md §5-6). Three shapes carry an order:
//   placed        {"order_id":"1370093239","order_status":"PreSubmitted","encrypt_message":"1"}
//   status by id  {"order_id":1799796559,"order_status":"Filled","average_price":"192.26","cum_fill":"5.0","total_size":"5.0"}
//   live orders   {"orderId":1210386759,"status":"PreSubmitted","avgPrice":"457.00","filledQuantity":0,"totalSize":1,"order_ref":"sig-1"}
// and executions (trades) one per fill: {"order_id":17437897932,"order_ref":"Order123","price":"192.26","size":5}.
import type { OrderResponse } from '@router/orders';
import { decimalField, type JsonRecord, stringField } from '../../core/json-read.ts';
import { IBKR_TITLE } from './descriptor.ts';

/** Working states (Inactive, PendingSubmit, PreSubmitted, Submitted, PendingCancel, WarnState) are accepted. */
const FINAL: Readonly<Record<string, OrderResponse['status']>> = {
  filled: 'filled',
  cancelled: 'canceled',
  apicancelled: 'canceled',
};

export const WORKING_STATUSES = new Set(['inactive', 'pendingsubmit', 'presubmitted', 'submitted', 'warnstate']);

export function statusOf(status: string): OrderResponse['status'] {
  return FINAL[status.toLowerCase()] ?? 'accepted';
}

function response(id: string, status: string, price: number | undefined, progress = ''): OrderResponse {
  return {
    id,
    status: statusOf(status),
    status_description: `${IBKR_TITLE} order ${status}${progress}`,
    ...(price !== undefined && price > 0 ? { price } : {}),
  };
}

const filledOf = (filled: number | undefined, total: number | undefined, status: string) =>
  filled !== undefined && filled > 0 && total !== undefined && statusOf(status) !== 'filled'
    ? `, ${filled} of ${total} filled`
    : '';

/** An element of the place (or reply) answer; undefined when it names no order. */
export function fromPlaced(element: JsonRecord): OrderResponse | undefined {
  const id = stringField(element, 'order_id');
  const status = stringField(element, 'order_status');
  return id && status ? response(id, status, undefined) : undefined;
}

export function fromOrderStatus(body: unknown): OrderResponse | undefined {
  const id = stringField(body, 'order_id');
  const status = stringField(body, 'order_status');
  if (!id || !status) return undefined;
  const filled = decimalField(body, 'cum_fill');
  const progress = filledOf(filled, decimalField(body, 'total_size'), status);
  return response(id, status, decimalField(body, 'average_price'), progress);
}

export function fromLiveOrder(order: JsonRecord): OrderResponse | undefined {
  const id = stringField(order, 'orderId');
  const status = stringField(order, 'status');
  if (!id || !status) return undefined;
  const progress = filledOf(decimalField(order, 'filledQuantity'), decimalField(order, 'totalSize'), status);
  return response(id, status, decimalField(order, 'avgPrice'), progress);
}

/**
 * The executions of one order (trades of the last days), at their average price. They carry no
 * order size: filled only when they reach `ordered` (when known); short of it the rest may be
 * working or canceled, so the order is accepted with what executed (never a complete fill).
 */
export function fromExecutions(executions: JsonRecord[], ordered?: number): OrderResponse | undefined {
  const id = stringField(executions[0], 'order_id');
  if (!id) return undefined;
  let size = 0;
  let value = 0;
  for (const execution of executions) {
    const quantity = decimalField(execution, 'size') ?? 0;
    size += quantity;
    value += quantity * (decimalField(execution, 'price') ?? 0);
  }
  const short = ordered !== undefined && size < ordered;
  return {
    id,
    status: short ? 'accepted' : 'filled',
    status_description: `${IBKR_TITLE} order executed: ${size}${short ? ` of ${ordered}` : ''} in ${executions.length} trade(s)`,
    ...(size > 0 ? { price: Math.round((value / size) * 1e8) / 1e8 } : {}),
  };
}
