// Placing and previewing at Questrade: the symbol ids a signal needs, the body (mapper.ts), and
// the answer. An answer with a top-level "code" is no success even on HTTP 200 (WIRE.md §8):
//   {"code":3054,"message":"Order rejected","orderId":177106005,"orders":[{…,"state":"Rejected",
//    "clientReasonStr":"Insufficient buying power"}]}
// is an order Questrade created and rejected: answered as rejected, with its id, when its record
// says Rejected or Failed; beside a record in another state it is that order's state, and without
// a record its outcome is unknown (reconciliation finds the order).
import type { Order, OrderResponse } from '@router/orders';
import type { BrokerContext } from '../../core/broker.ts';
import { BrokerError } from '../../core/errors.ts';
import { matchException } from '../../core/exceptions.ts';
import { asRecord, decimalField, listOf, stringField } from '../../core/json-read.ts';
import type { AccountApi } from './api.ts';
import { QUESTRADE_TITLE, questradeDescriptor } from './descriptor.ts';
import { fromRecord, type Submission, toSubmission } from './mapper.ts';
import { symbolIdOf, underlyingOf } from './symbols.ts';

const invalid = (message: string) => new BrokerError('InvalidOrder', QUESTRADE_TITLE, message);

/** The request a signal becomes (close and cancel are handled by the adapter): checked, then its ids looked up. */
export async function submissionOf(
  api: AccountApi,
  ctx: BrokerContext,
  order: Order,
  now: number,
): Promise<Submission> {
  const toTarget = toSubmission(order);
  const scope = ctx.baseUrl;
  const symbolId = order.legs
    ? await symbolIdOf(api.http, scope, underlyingOf(order.legs[0]?.symbol ?? ''), 'stock', now)
    : await symbolIdOf(api.http, scope, order.symbol, order.class, now);
  const legIds: number[] = [];
  for (const leg of order.legs ?? []) legIds.push(await symbolIdOf(api.http, scope, leg.symbol, leg.class, now));
  return toTarget({ accountNumber: api.accountNumber, symbolId, legIds });
}

/** `{orderId, orders: [records]}` → ours; a body with a code is a rejection. */
export function fromPlacement(body: unknown): OrderResponse {
  const record = asRecord(body);
  const orders = listOf(record?.orders);
  const orderId = stringField(record, 'orderId');
  const primary =
    orders.find((item) => stringField(item, 'id') === orderId) ??
    orders.find((item) => stringField(item, 'orderClass') === 'Primary') ??
    orders[0];
  const id = orderId ?? stringField(primary, 'id');
  if (record?.code !== undefined) {
    const message = stringField(record, 'message') ?? 'order refused';
    if (!id)
      throw new BrokerError(
        matchException(questradeDescriptor.exceptions, message) ?? 'InvalidOrder',
        QUESTRADE_TITLE,
        message,
      );
    // Rejected only when the order's own record says so: a code beside an order in another
    // state (or none) does not prove the order is gone.
    const order = primary ? fromRecord(primary, id) : undefined;
    if (order?.status === 'rejected') {
      const reason = stringField(primary, 'clientReasonStr') || stringField(primary, 'rejectionReason');
      return { id, status: 'rejected', status_description: reason ? `${message}: ${reason}` : message };
    }
    if (order && stringField(primary, 'state'))
      return { ...order, status_description: `${message}; ${order.status_description}` };
    throw new BrokerError('BrokerUnavailable', QUESTRADE_TITLE, `${message} (order ${id}, its state not given)`, {
      outcomeUnknown: true,
      brokerOrderId: id,
    });
  }
  if (!id) {
    // Neither an order nor an error: the order may exist; reconciliation looks for it by terms.
    throw new BrokerError('BrokerUnavailable', QUESTRADE_TITLE, 'unexpected answer to the order', {
      outcomeUnknown: true,
    });
  }
  return fromRecord(primary ?? { state: 'Pending' }, id);
}

export async function place(api: AccountApi, submission: Submission): Promise<OrderResponse> {
  const { body } = await api.http.request({
    method: 'POST',
    path: `${api.path}/${submission.path}`,
    json: submission.body,
  });
  return fromPlacement(body);
}

/** POST …/impact: what the order would cost; nothing is placed. */
export async function preview(api: AccountApi, submission: Submission, clientOrderId: string): Promise<OrderResponse> {
  const { body } = await api.http.request({
    method: 'POST',
    path: `${api.path}/${submission.path}/impact`,
    json: submission.body,
    mutating: false,
  });
  if (asRecord(body)?.code !== undefined) throw invalid(stringField(body, 'message') ?? 'order refused');
  const commissions = decimalField(body, 'estimatedCommissions');
  const effect = decimalField(body, 'buyingPowerEffect');
  const parts = [
    commissions !== undefined ? `commissions ${commissions}` : undefined,
    effect !== undefined ? `buying power effect ${effect}` : undefined,
  ].filter(Boolean);
  return {
    id: clientOrderId,
    status: 'draft',
    status_description: `Questrade estimate${parts.length ? `: ${parts.join(', ')}` : ''}; nothing placed`,
  };
}
