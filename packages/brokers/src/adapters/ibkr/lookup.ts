// Finding an order again (WIRE.md §6; core/find-order.ts picks the route). IBKR has no lookup by
// cOID: by the broker's id, GET /iserver/account/order/status/{id} (this session only: an older
// order answers 503, which proves nothing); by ours, the live orders (open ones and this
// session's filled or cancelled ones) and the last 7 days of executions, which echo it as
// order_ref. Neither list covers every order ever entered, so not finding ours proves nothing.
// Both ids are unique for the login (ours is the signal id), so a match needs no account check.
import type { OrderResponse } from '@router/orders';
import type { BrokerContext, BrokerSession } from '../../core/broker.ts';
import { isBrokerError } from '../../core/errors.ts';
import { type JsonRecord, listOf } from '../../core/json-read.ts';
import type { ListedOrder, RecentOrdersQuery } from '../../core/lookup.ts';
import type { IbkrApi } from './api.ts';
import { fromExecutions, fromLiveOrder, fromOrderStatus } from './reader.ts';
import { accountPath } from './submit.ts';

/** Executions are listed this far back (GET /iserver/account/trades?days=7). */
const EXECUTIONS_DAYS = 7;

/**
 * The live orders of the login; with `exits`, `accountId`'s alone (lists hold every account of the
 * login) and never a cold first answer of the session (WIRE.md §6): orders about to be canceled or
 * cut must all be seen. A lookup by id needs no second read: not finding proves nothing anyway.
 */
export async function liveOrders(
  api: IbkrApi,
  ctx: BrokerContext,
  session: BrokerSession,
  accountId: string,
  exits = false,
): Promise<JsonRecord[]> {
  accountPath(session, accountId);
  const orders = await api.liveOrders(ctx, session, exits);
  return exits ? orders.filter((order) => [order.acct, order.account].includes(accountId)) : orders;
}

export async function findById(
  api: IbkrApi,
  ctx: BrokerContext,
  session: BrokerSession,
  accountId: string,
  orderId: string,
): Promise<OrderResponse | null> {
  accountPath(session, accountId);
  try {
    const path = `/iserver/account/order/status/${encodeURIComponent(orderId)}`;
    const { status, body } = await api.call(ctx, session, { path, accept: [503] });
    return (status !== 503 && fromOrderStatus(body)) || null;
  } catch (error) {
    // {"error": "…"} for an id IBKR does not know in this session.
    if (isBrokerError(error) && (error.kind === 'OrderNotFound' || error.kind === 'InvalidOrder')) return null;
    throw error;
  }
}

/**
 * Our order by its cOID in the live orders, else in the executions; null: not in either list.
 * `ordered`: the order's quantity, when known, which its executions must reach to be a fill.
 */
export async function findOwnOrder(
  api: IbkrApi,
  ctx: BrokerContext,
  session: BrokerSession,
  accountId: string,
  clientOrderId: string,
  ordered?: number,
): Promise<OrderResponse | null> {
  const live = (await liveOrders(api, ctx, session, accountId)).find((order) => order.order_ref === clientOrderId);
  const fromLive = live && fromLiveOrder(live);
  if (fromLive) return fromLive;
  const { body } = await api.call(ctx, session, { path: '/iserver/account/trades', query: { days: EXECUTIONS_DAYS } });
  const executions = listOf(body).filter((trade) => trade.order_ref === clientOrderId);
  return (executions.length > 0 && fromExecutions(executions, ordered)) || null;
}

/** Our order among those IBKR lists, whenever it was entered; null (nothing proved) when it is not there. */
export async function listOwnOrders(
  api: IbkrApi,
  ctx: BrokerContext,
  session: BrokerSession,
  query: RecentOrdersQuery,
): Promise<ListedOrder[] | null> {
  // The size the executions are compared with: a single order's own (a combo's legs execute apart).
  const { order: sent } = query;
  const ordered = sent && !sent.legs?.length && sent.action !== 'close' ? sent.quantity : undefined;
  const order = await findOwnOrder(api, ctx, session, query.accountId, query.clientOrderId, ordered);
  return order ? [{ order, match: 'id' }] : null;
}
