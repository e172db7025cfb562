// Finding a Tradovate order again (core/find-order.ts picks the route). By its id:
// GET /order/item?id= (status; the price comes from GET /fill/deps, an exchange's rejection
// reason from GET /executionReport/deps). By our clOrdId: Tradovate
// keeps it on the order's New command but has no query by it (WIRE.md §6), so the command list
// is searched. That list is taken to hold at least the current trading session (since 17:00
// Chicago time); for an older window nothing is proved (null).
import { latestWallHour, type OrderResponse } from '@router/orders';
import { decimalField, listOf, stringField } from '../../core/json-read.ts';
import type { ListedOrder, RecentOrdersQuery } from '../../core/lookup.ts';
import { clOrdIdOf, fromOrder } from './mapper.ts';
import type { AccountClient } from './session.ts';

/** Start of the CME Globex session `now` falls in: the latest 17:00 in Chicago. */
export const sessionStart = (now: number): number => latestWallHour(now, 'America/Chicago', 17);

async function averageFill(client: AccountClient, orderId: string): Promise<number | undefined> {
  const { body } = await client.call({ path: '/fill/deps', query: { masterid: orderId } });
  let quantity = 0;
  let value = 0;
  for (const fill of listOf(body)) {
    const qty = decimalField(fill, 'qty') ?? 0;
    quantity += qty;
    value += qty * (decimalField(fill, 'price') ?? 0);
  }
  return quantity > 0 ? Math.round((value / quantity) * 1e6) / 1e6 : undefined;
}

/**
 * Why the exchange rejected an order Tradovate had accepted (WIRE.md §5): the rejectReason and
 * text of its ExecutionReport (GET /executionReport/deps?masterid=), "Price out of range (OtherExecutionRelated)".
 */
async function rejectionOf(client: AccountClient, orderId: string): Promise<string | undefined> {
  const { body } = await client.call({ path: '/executionReport/deps', query: { masterid: orderId } });
  const report = listOf(body)
    .filter((item) => stringField(item, 'rejectReason') || stringField(item, 'text'))
    .at(-1);
  const reason = stringField(report, 'rejectReason');
  const text = stringField(report, 'text')?.trim();
  return text && reason ? `${text} (${reason})` : (text ?? reason);
}

export async function findById(client: AccountClient, orderId: string): Promise<OrderResponse | null> {
  if (!/^\d+$/.test(orderId)) return null;
  const answer = await client.call({ path: '/order/item', query: { id: orderId }, accept: [404] });
  if (answer.status === 404 || stringField(answer.body, 'id') !== orderId) return null;
  // Another account's order is not this connection account's.
  if (decimalField(answer.body, 'accountId') !== client.accountId) return null;
  const status = stringField(answer.body, 'ordStatus');
  if (status === 'Rejected') return fromOrder(answer.body, undefined, await rejectionOf(client, orderId));
  return fromOrder(answer.body, status === 'Filled' ? await averageFill(client, orderId) : undefined);
}

export async function listByClOrdId(
  client: AccountClient,
  query: RecentOrdersQuery,
  now: number,
): Promise<ListedOrder[] | null> {
  const clOrdId = clOrdIdOf(query.clientOrderId);
  const { body } = await client.call({ path: '/command/list' });
  const command = listOf(body).find(
    (item) => stringField(item, 'clOrdId') === clOrdId && (stringField(item, 'commandType') ?? 'New') === 'New',
  );
  // Our New command proves the order was sent: not being shown its order then proves nothing.
  if (command) {
    const orderId = stringField(command, 'orderId');
    const order = orderId ? await findById(client, orderId) : null;
    return order ? [{ order, match: 'id' }] : null;
  }
  // A liquidation (close without a quantity) and a cancel carry no clOrdId: not finding one proves nothing.
  const order = query.order;
  const carriesId = !(order?.action === 'cancel' || (order?.action === 'close' && order.quantity === undefined));
  return carriesId && query.from >= sessionStart(now) ? [] : null;
}
