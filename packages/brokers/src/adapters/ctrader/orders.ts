// Orders on one account, confirmed by execution events (WIRE.md §5): cTrader answers a new order
// with ProtoOAExecutionEvent ORDER_ACCEPTED (echoing our clientMsgId), and a market order with
// ORDER_FILLED right after; a refusal is a ProtoOAOrderErrorEvent, a ProtoOAErrorRes or an
// ORDER_REJECTED event (client.ts throws them as typed errors). A new order is sent once; an
// answer lost on the way is outcomeUnknown, for reconciliation to settle.
import type { OrderResponse } from '@router/orders';
import { cancelEach } from '../../core/cancel-each.ts';
import { BrokerError } from '../../core/errors.ts';
import { asRecord, decimalField, type JsonRecord, listOf, stringField } from '../../core/json-read.ts';
import { recordBrokerRequest } from '../../core/wire-log.ts';
import { type AccountClient, expectAnswer } from './client.ts';
import { CTRADER_TITLE } from './descriptor.ts';
import { EXECUTION } from './errors.ts';
import { ORDER_TYPE } from './mapper.ts';
import type { WireMessage } from './protocol.ts';
import { responseOf } from './reader.ts';

/** How long an accepted market order is watched for its fill before it is reported as accepted. */
export const FILL_WAIT_MS = 1_000;

const orderOf = (message: WireMessage) => asRecord(message.payload.order);
const isExecution = (message: WireMessage) => message.name === 'ProtoOAExecutionEvent';
const CANCEL_OUTCOMES = new Set<number>([EXECUTION.ORDER_CANCELLED, EXECUTION.ORDER_CANCEL_REJECTED]);
const FINAL = new Set<number>([
  EXECUTION.ORDER_FILLED,
  EXECUTION.ORDER_REJECTED,
  EXECUTION.ORDER_CANCELLED,
  EXECUTION.ORDER_EXPIRED,
]);

/** Waits for the first event `pick` accepts among those seen (or to come), up to `ms` or the deadline. */
function firstOf(
  seen: WireMessage[],
  subscribe: (listener: () => void) => () => void,
  pick: (message: WireMessage) => boolean,
  ms: number,
  signal?: AbortSignal,
): Promise<WireMessage | undefined> {
  return new Promise((resolve) => {
    const found = seen.find(pick);
    if (found || signal?.aborted) return resolve(found);
    const finish = (message?: WireMessage) => {
      clearTimeout(timer);
      stop();
      signal?.removeEventListener('abort', onAbort);
      resolve(message);
    };
    const onAbort = () => finish();
    const timer = setTimeout(finish, ms);
    const stop = subscribe(() => {
      const next = seen.find(pick);
      if (next) finish(next);
    });
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Sends a request cTrader answers with an execution event about `matches` (refusals throw) and,
 * when `awaitFill`, watches that order a little longer for its fill.
 */
async function confirmed(
  client: AccountClient,
  request: { name: string; payload: JsonRecord; matches: (event: JsonRecord) => boolean; awaitFill: boolean },
  signal?: AbortSignal,
): Promise<OrderResponse> {
  // Events are kept from before the send: a fill may arrive in the same read as the acceptance.
  const seen: WireMessage[] = [];
  const waiting = new Set<() => void>();
  const stopListening = await client.listen((message) => {
    if (!isExecution(message)) return;
    seen.push(message);
    for (const wake of [...waiting]) wake();
  });
  try {
    const answer = await client.call(request.name, request.payload, {
      mutating: true,
      match: (message) => isExecution(message) && request.matches(message.payload),
    });
    const event = expectAnswer(answer, 'ProtoOAExecutionEvent', true);
    const orderId = stringField(asRecord(event.order), 'orderId');
    if (!orderId) {
      throw new BrokerError('BrokerUnavailable', CTRADER_TITLE, 'the execution event names no order', {
        outcomeUnknown: true,
      });
    }
    if (!request.awaitFill || FINAL.has(decimalField(event, 'executionType') ?? 0)) return responseOf(event);
    const ofThisOrder = (message: WireMessage) =>
      stringField(orderOf(message), 'orderId') === orderId &&
      FINAL.has(decimalField(message.payload, 'executionType') ?? 0);
    const subscribe = (listener: () => void) => {
      waiting.add(listener);
      return () => waiting.delete(listener);
    };
    const final = await firstOf(seen, subscribe, ofThisOrder, FILL_WAIT_MS, signal);
    return responseOf(final?.payload ?? event);
  } finally {
    stopListening();
  }
}

/** Sends ProtoOANewOrderReq and reads what cTrader did with it. */
export function submitOrder(
  client: AccountClient,
  payload: JsonRecord,
  clientOrderId: string,
  signal?: AbortSignal,
): Promise<OrderResponse> {
  const matches = (event: JsonRecord) => stringField(asRecord(event.order), 'clientOrderId') === clientOrderId;
  const awaitFill = payload.orderType === ORDER_TYPE.market;
  // The trade's detail shows the order message as sent (the access token travels apart, in account auth).
  recordBrokerRequest({ method: 'WS', path: 'ProtoOANewOrderReq', body: payload });
  return confirmed(client, { name: 'ProtoOANewOrderReq', payload, matches, awaitFill }, signal);
}

export async function cancelById(client: AccountClient, orderId: string): Promise<void> {
  if (!/^\d+$/.test(orderId)) throw new BrokerError('OrderNotFound', CTRADER_TITLE, `no order ${orderId}`);
  await confirmed(client, {
    name: 'ProtoOACancelOrderReq',
    payload: { orderId: Number(orderId) },
    // Only the cancel's own outcome: a fill of that order arriving meanwhile answers nothing here.
    matches: (event) =>
      stringField(asRecord(event.order), 'orderId') === orderId &&
      CANCEL_OUTCOMES.has(decimalField(event, 'executionType') ?? 0),
    awaitFill: false,
  });
}

/** Open positions and pending orders of the account (ProtoOAReconcileReq). */
export async function reconcile(client: AccountClient): Promise<{ positions: JsonRecord[]; orders: JsonRecord[] }> {
  const payload = expectAnswer(await client.call('ProtoOAReconcileReq', {}), 'ProtoOAReconcileRes');
  return { positions: listOf(payload.position), orders: listOf(payload.order) };
}

const symbolIdOf = (item: JsonRecord) => decimalField(asRecord(item.tradeData), 'symbolId');

/** The close action: positions of the symbol closed, oldest first, up to `volume` (hundredths of a unit) when given. */
export async function closeSymbol(
  client: AccountClient,
  symbolId: number,
  symbolName: string,
  volume?: number,
  signal?: AbortSignal,
): Promise<OrderResponse> {
  const open = (await reconcile(client)).positions
    .filter((position) => symbolIdOf(position) === symbolId)
    .sort(
      (a, b) =>
        (decimalField(asRecord(a.tradeData), 'openTimestamp') ?? 0) -
        (decimalField(asRecord(b.tradeData), 'openTimestamp') ?? 0),
    );
  if (open.length === 0) throw new BrokerError('InvalidOrder', CTRADER_TITLE, `no open position in ${symbolName}`);
  let left = volume ?? Number.POSITIVE_INFINITY;
  let last: OrderResponse | undefined;
  for (const position of open) {
    if (left <= 0) break;
    const positionId = stringField(position, 'positionId') ?? '';
    const part = Math.min(decimalField(asRecord(position.tradeData), 'volume') ?? 0, left);
    last = await confirmed(
      client,
      {
        name: 'ProtoOAClosePositionReq',
        payload: { positionId: Number(positionId), volume: part },
        matches: (event) => stringField(asRecord(event.position), 'positionId') === positionId,
        awaitFill: true,
      },
      signal,
    );
    left -= part;
  }
  return last ?? { id: '', status: 'canceled', status_description: `Nothing to close in ${symbolName}` };
}

/** The cancel action: every pending order of the symbol; none pending is an answer, not an error. */
export async function cancelSymbol(
  client: AccountClient,
  symbolId: number,
  symbolName: string,
): Promise<OrderResponse> {
  const pending = (await reconcile(client)).orders.filter((order) => symbolIdOf(order) === symbolId);
  const ids = pending.map((order) => stringField(order, 'orderId')).filter((id): id is string => id !== undefined);
  await cancelEach(ids, symbolName, (id) => cancelById(client, id));
  const description = ids.length
    ? `Canceled ${ids.length} open order(s) of ${symbolName}`
    : `No open orders of ${symbolName}`;
  return { id: ids.join(','), status: 'canceled', status_description: description };
}
