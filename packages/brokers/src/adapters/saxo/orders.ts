// Placing at Saxo (WIRE.md §4, §5, §8). Each placement carries X-Request-ID = our reference:
// Saxo refuses the same order with the same id again within 15 s (409), and that refusal is
// answered with the order already placed, found by its ExternalReference. Related orders may be
// placed in part under an error status ({"Orders":[{"OrderId"},{"ErrorInfo":…}]}): an order that
// exists is never reported as refused. Precheck is Saxo's preview: same body, nothing placed.
import type { OrderResponse } from '@router/orders';
import type { BrokerContext, BrokerSession } from '../../core/broker.ts';
import { BrokerError, checkAccountInConnection, isBrokerError } from '../../core/errors.ts';
import { matchException } from '../../core/exceptions.ts';
import { asRecord, decimalField, listOf, stringField } from '../../core/json-read.ts';
import { errorOf, type SaxoApi, SaxoError } from './api.ts';
import { SAXO_TITLE, saxoDescriptor } from './descriptor.ts';
import { openOrders } from './lookup.ts';
import type { SaxoOco, SaxoOrder } from './mapper.ts';
import { legErrors, placedIds } from './reader.ts';

const ORDERS = '/trade/v2/orders';

export function accountKeyOf(session: BrokerSession, accountId: string): string {
  checkAccountInConnection(SAXO_TITLE, session, accountId);
  return accountId;
}

function placed(body: unknown): OrderResponse | undefined {
  const [first, ...others] = placedIds(body);
  if (!first) return undefined;
  const refused = legErrors(body);
  const entry = stringField(asRecord(body), 'OrderId');
  // Without an entry the answer is an OCO pair's: {"Orders":[{"OrderId"},{"OrderId"}]}.
  const parts = entry
    ? [`Order placed at Saxo${others.length ? ` with related orders ${others.join(', ')}` : ''}.`]
    : [`Order placed at Saxo${others.length ? `, one-cancels-other with order ${others.join(', ')}` : ''}.`];
  if (refused.length)
    parts.push(`Saxo refused ${entry ? 'a related order' : 'one order of the pair'}: ${refused.join('; ')}`);
  return { id: entry ?? first, status: 'accepted', status_description: parts.join(' ') };
}

/** Our reference on the placement: the entry's, or the first OCO leg's. */
const referenceOf = (order: SaxoOrder | SaxoOco) =>
  ('Uic' in order ? order.ExternalReference : order.Orders[0].ExternalReference) ?? '';

export async function placeOrder(
  api: SaxoApi,
  ctx: BrokerContext,
  session: BrokerSession,
  order: SaxoOrder | SaxoOco,
  findPlaced: () => Promise<OrderResponse | null>,
): Promise<OrderResponse> {
  const reference = referenceOf(order);
  let body: unknown;
  try {
    ({ body } = await api.call(
      ctx,
      session,
      { method: 'POST', path: ORDERS, json: order, headers: { 'x-request-id': reference } },
      'order',
    ));
  } catch (error) {
    if (!(error instanceof SaxoError)) throw error;
    // Some legs may stand although the answer is an error.
    const partly = placed(error.body);
    if (partly) return partly;
    if (error.status === 409) {
      const first = await findPlaced();
      if (first) return first;
    }
    throw error;
  }
  const answer = placed(body);
  if (answer) return answer;
  throw new BrokerError('BrokerUnavailable', SAXO_TITLE, 'the answer carries no order id; check the account', {
    outcomeUnknown: true,
  });
}

/** Saxo's precheck: Ok (with its estimate), or the refusal placing would meet. */
export async function precheck(
  api: SaxoApi,
  ctx: BrokerContext,
  session: BrokerSession,
  order: SaxoOrder,
  id: string,
): Promise<OrderResponse> {
  const { body } = await api.call(ctx, session, {
    method: 'POST',
    path: `${ORDERS}/precheck`,
    json: order,
    mutating: false,
  });
  const { code, message } = errorOf(body);
  const text = message ?? code;
  if (stringField(body, 'PreCheckResult') !== 'Ok') {
    const kind =
      (code && matchException(saxoDescriptor.exceptions, code)) || matchException(saxoDescriptor.exceptions, text);
    throw new BrokerError(kind || 'InvalidOrder', SAXO_TITLE, text ?? 'the precheck failed');
  }
  const cash = decimalField(body, 'EstimatedCashRequired');
  const currency = stringField(body, 'EstimatedCashRequiredCurrency');
  const parts = ['Preview, nothing placed.'];
  if (cash !== undefined) parts.push(`Estimated cash required ${cash}${currency ? ` ${currency}` : ''}.`);
  if (text) parts.push(`Saxo warns: ${text}`);
  return { id, status: 'draft', status_description: parts.join(' ') };
}

/**
 * Cancels orders by id ("76289286" or several, comma-separated, in one request); the ids Saxo's
 * answer lists as canceled ({"Orders":[{"OrderId"}]}, one refused carries its ErrorInfo), all of
 * them when it lists none. Saxo answers 404 when an order is already filled or gone (WIRE.md §7),
 * for a batch as a whole: the orders still open are then canceled on their own, and those no longer
 * open are `gone` (not canceled by us), rather than reported not found (one order alone too).
 */
export async function cancelOrders(
  api: SaxoApi,
  ctx: BrokerContext,
  session: BrokerSession,
  accountKey: string,
  orderIds: readonly string[],
): Promise<{ canceled: string[]; refused: string[]; gone: string[] }> {
  const ids = orderIds.map(encodeURIComponent).join(',');
  let body: unknown;
  try {
    ({ body } = await api.call(ctx, session, {
      method: 'DELETE',
      path: `${ORDERS}/${ids}`,
      query: { AccountKey: accountKey },
    }));
  } catch (error) {
    if (!isBrokerError(error) || error.kind !== 'OrderNotFound') throw error;
    const open = new Set((await openOrders(api, ctx, session, accountKey)).map((item) => stringField(item, 'OrderId')));
    const still = orderIds.filter((id) => open.has(id));
    // All listed open, nothing tells the gone one apart: Saxo's 404 is the answer.
    if (still.length === orderIds.length) throw error;
    const rest = still.length
      ? await cancelOrders(api, ctx, session, accountKey, still)
      : { canceled: [], refused: [], gone: [] };
    return { ...rest, gone: [...orderIds.filter((id) => !open.has(id)), ...rest.gone] };
  }
  const listed = asRecord(body)?.Orders;
  if (!Array.isArray(listed)) return { canceled: [...orderIds], refused: legErrors(body), gone: [] };
  const done = new Set(
    listOf(listed)
      .filter((item) => !asRecord(item.ErrorInfo))
      .map((item) => stringField(item, 'OrderId')),
  );
  return { canceled: orderIds.filter((id) => done.has(id)), refused: legErrors(body), gone: [] };
}
