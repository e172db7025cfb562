// Finding a Saxo order again (core/find-order.ts picks the route; WIRE.md §6). Open orders leave
// /port/v1/orders once filled or canceled, so the order activities (the audit log) tell the final
// state. Nothing searches by ExternalReference: a lost order is found among the open orders and
// the activities of the window whose ExternalReference is ours.
//   GET /port/v1/orders/{ClientKey}/{OrderId}                      open: {"Data":[{…}]}, else {"Data":[]}
//   GET /cs/v1/audit/orderactivities?OrderId=…&EntryType=Last       {"Data":[{"Status":"FinalFill",…}]}
//   GET /cs/v1/audit/orderactivities?ClientKey&AccountKey&FromDateTime&ToDateTime&EntryType=Last
import type { OrderResponse } from '@router/orders';
import type { BrokerContext, BrokerSession } from '../../core/broker.ts';
import { BrokerError, isBrokerError } from '../../core/errors.ts';
import { asRecord, type JsonRecord, listOf, stringField } from '../../core/json-read.ts';
import type { ListedOrder } from '../../core/lookup.ts';
import type { SaxoApi } from './api.ts';
import { SAXO_TITLE } from './descriptor.ts';
import { activityResponse, openOrderResponse } from './reader.ts';

/** A key in a path as Saxo's examples write it: base64's '=' padding stays as it is. */
const pathSegment = (value: string) => encodeURIComponent(value).replace(/%3D/g, '=');

/** Pages of a list followed at most (Saxo links the next one in __next). */
const MAX_PAGES = 5;

export function clientKeyOf(session: BrokerSession): string {
  const key = session.secrets.clientKey;
  if (!key)
    throw new BrokerError('AuthenticationError', SAXO_TITLE, 'the connection names no Saxo client; connect again');
  return key;
}

/** The items of a paged list (Data, then __next); `complete` is false when it went on past the pages read. */
async function pages(
  api: SaxoApi,
  ctx: BrokerContext,
  session: BrokerSession,
  path: string,
  query: Record<string, string>,
) {
  const items: JsonRecord[] = [];
  let next: { path: string; query?: Record<string, string> } | undefined = { path, query };
  for (let page = 0; next && page < MAX_PAGES; page++) {
    const { body }: { body: unknown } = await api.call(ctx, session, next);
    items.push(...listOf(asRecord(body)?.Data));
    const link = stringField(body, '__next');
    next = link ? { path: link } : undefined;
  }
  return { items, complete: next === undefined };
}

/** Every item of a paged list, as far as MAX_PAGES. */
async function allPages(...args: Parameters<typeof pages>) {
  return (await pages(...args)).items;
}

/** The open orders of one account. */
export async function openOrders(api: SaxoApi, ctx: BrokerContext, session: BrokerSession, accountKey: string) {
  const orders = await allPages(api, ctx, session, '/port/v1/orders/me', { FieldGroups: 'DisplayAndFormat' });
  return orders.filter((order) => stringField(order, 'AccountKey') === accountKey);
}

export async function findById(
  api: SaxoApi,
  ctx: BrokerContext,
  session: BrokerSession,
  orderId: string,
): Promise<OrderResponse | null> {
  const clientKey = clientKeyOf(session);
  try {
    const { body } = await api.call(ctx, session, {
      path: `/port/v1/orders/${pathSegment(clientKey)}/${pathSegment(orderId)}`,
    });
    const [open] = listOf(asRecord(body)?.Data);
    if (open) return openOrderResponse(open);
  } catch (error) {
    if (!isBrokerError(error) || error.kind !== 'OrderNotFound') throw error;
  }
  const { body } = await api.call(ctx, session, {
    path: '/cs/v1/audit/orderactivities',
    query: { ClientKey: clientKey, OrderId: orderId, EntryType: 'Last' },
  });
  const [last] = listOf(asRecord(body)?.Data).slice(-1);
  return last ? activityResponse(last) : null;
}

/**
 * Orders of the window that carry our ExternalReference: open ones, and the last activity of the
 * others; null when none is found and a list went on past the pages read (nothing is proved).
 */
export async function listByReference(
  api: SaxoApi,
  ctx: BrokerContext,
  session: BrokerSession,
  query: { accountId: string; reference: string; from: number; to: number },
): Promise<ListedOrder[] | null> {
  const ours = (item: JsonRecord) => stringField(item, 'ExternalReference') === query.reference;
  const [listed, audit] = await Promise.all([
    pages(api, ctx, session, '/port/v1/orders/me', { FieldGroups: 'DisplayAndFormat' }),
    pages(api, ctx, session, '/cs/v1/audit/orderactivities', {
      ClientKey: clientKeyOf(session),
      AccountKey: query.accountId,
      FromDateTime: new Date(query.from).toISOString(),
      ToDateTime: new Date(query.to).toISOString(),
      EntryType: 'Last',
    }),
  ]);
  const open = listed.items.filter((order) => stringField(order, 'AccountKey') === query.accountId);
  const activities = audit.items;
  const found = new Map<string, OrderResponse>();
  for (const order of open.filter(ours)) found.set(stringField(order, 'OrderId') ?? '', openOrderResponse(order));
  // The audit's last entry of an order tells more than its open-order line (fills, cancels).
  for (const activity of activities.filter(ours))
    found.set(stringField(activity, 'OrderId') ?? '', activityResponse(activity));
  if (found.size === 0 && !(listed.complete && audit.complete)) return null;
  return [...found.values()].map((order) => ({ order, match: 'id' }));
}
