// GET /api/v1/accounts/{id}/orders, GET and DELETE /api/v1/orders/{orderId}: the caller's own
// orders only (another user's id is not found), whether placed by a hook or by the API.
import type { ApiOrder } from '@router/shared/api';
import {
  findUserSignal,
  listAccountSignals,
  markSignalCanceled,
  type OrderRow,
} from '../../db/repositories/api-orders.repository.ts';
import { findConnector } from '../../db/repositories/connectors.repository.ts';
import { AppError } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { holdsAccount } from '../connectors/holds-account.ts';
import { asAppError, withBrokerSession } from '../connectors/index.ts';
import type { SignalRuntime } from '../signals/index.ts';
import type { ResolvedAccount } from './accounts.ts';
import { type AnswerOverlay, overlayFromAnswer, toApiOrder } from './order-view.ts';

export const ORDER_NOT_FOUND = 'Order not found';
export const CURSOR_UNKNOWN = 'cursor: not a page of this list';

export interface Page<T> {
  data: T[];
  next: string | null;
}

/**
 * A row still 'placing' whose answer this process already gave (its outcome is written in a batch
 * just after): that answer, so a read right after the POST agrees with it. The deadline's answer
 * reads as still placing (overlayFromAnswer).
 */
async function answered(signals: SignalRuntime, row: OrderRow): Promise<AnswerOverlay | undefined> {
  const inFlight = row.status === 'placing' ? signals.inFlight.get(row.id) : undefined;
  if (!inFlight) return undefined;
  // Only an answer already given: a call still running stays 'pending'.
  const answer = await Promise.race([inFlight, Promise.resolve(undefined)]);
  if (answer?.statusCode !== 201) return undefined;
  const title = signals.services.brokers.descriptor(row.providerName)?.title ?? row.providerName;
  return overlayFromAnswer(row.id, answer.body, title);
}

const view = async (signals: SignalRuntime, row: OrderRow) => toApiOrder(row, await answered(signals, row));

export async function listApiOrders(
  services: Services,
  signals: SignalRuntime,
  userId: number,
  target: ResolvedAccount,
  page: { limit: number; cursor?: string | undefined },
): Promise<Page<ApiOrder>> {
  // A cursor names an order of this list: another (mangled, or another account's) would read as
  // an empty last page, and a client would stop paging with orders left unread; an empty one
  // (the last page's null sent back as '') as the first page, read again and again.
  if (page.cursor !== undefined) {
    const at = await findUserSignal(services.db, userId, page.cursor);
    if (at?.connectorId !== target.connector.id || at.accountId !== target.account.id) {
      throw new AppError('VALIDATION', CURSOR_UNKNOWN);
    }
  }
  const rows = await listAccountSignals(services.db, {
    userId,
    connectorId: target.connector.id,
    accountId: target.account.id,
    limit: page.limit,
    ...(page.cursor ? { after: page.cursor } : {}),
  });
  const data = rows.slice(0, page.limit);
  return {
    data: await Promise.all(data.map((row) => view(signals, row))),
    next: rows.length > page.limit ? (data.at(-1)?.id ?? null) : null,
  };
}

async function requireOrder(services: Services, userId: number, orderId: string): Promise<OrderRow> {
  const row = await findUserSignal(services.db, userId, orderId);
  if (!row) throw new AppError('NOT_FOUND', ORDER_NOT_FOUND);
  return row;
}

export async function getApiOrder(
  services: Services,
  signals: SignalRuntime,
  userId: number,
  orderId: string,
): Promise<ApiOrder> {
  return view(signals, await requireOrder(services, userId, orderId));
}

/** Statuses with nothing left to cancel at the broker. */
const FINAL: ReadonlySet<string> = new Set(['draft', 'rejected', 'failed', 'canceled', 'filled']);

/**
 * Cancels the order at its broker (the adapter's cancelOrder, by the broker's id or, when the
 * placing answer was lost, by ours) and records it. An order still being placed is refused: its
 * outcome is not known yet.
 */
export async function cancelApiOrder(
  services: Services,
  signals: SignalRuntime,
  userId: number,
  orderId: string,
): Promise<ApiOrder> {
  let row = await requireOrder(services, userId, orderId);
  // Answered by this process with what the broker said, its outcome being written: that write
  // comes first (it tells order.placed, which it would not do from 'canceled'), then the cancel,
  // from its status. An answer given at the deadline (still placing) is refused below.
  let given = await answered(signals, row);
  if (given && given.status !== 'placing') {
    await signals.inFlight.settled(row.id);
    row = await requireOrder(services, userId, orderId);
    given = await answered(signals, row);
  }
  const status = given?.status ?? row.status;
  if (FINAL.has(status)) throw new AppError('EXECUTION', `Order is ${status}: there is nothing to cancel`);
  if (status === 'placing') throw new AppError('EXECUTION', 'Order is still being placed: try again shortly');
  const brokerOrderId = row.brokerOrderId ?? given?.brokerOrderId;
  const connector = row.connectorKey ? await findConnector(services.db, userId, row.connectorKey) : undefined;
  if (!connector) throw new AppError('EXECUTION', 'The broker connection of this order was deleted');
  // The adapter would refuse the account as not part of the connection too: told here, with the
  // way out, before any broker call.
  if (!holdsAccount(connector, row.accountId)) {
    throw new AppError(
      'EXECUTION',
      "This order's account is no longer part of its broker connection: reconnect the broker with that account",
    );
  }
  const broker = await services.brokers.load(connector.providerName);
  if (!broker?.cancelOrder) {
    throw new AppError(
      'EXECUTION',
      `${broker?.descriptor.title ?? connector.providerName}: orders cannot be canceled here`,
    );
  }
  await withBrokerSession(
    services,
    connector,
    ({ broker: b, ctx, session }) =>
      (b.cancelOrder as NonNullable<typeof b.cancelOrder>)(ctx, session, {
        accountId: row.accountId,
        clientOrderId: row.id,
        ...(brokerOrderId ? { brokerOrderId } : {}),
      }),
    { signal: AbortSignal.timeout(services.config.HOOK_DEADLINE_MS) },
  ).catch((error: unknown) => {
    throw asAppError(error);
  });
  // From 'placing' (its outcome not written yet: that late write then finds 'canceled' and leaves
  // it, as every outcome write names the status it moves from) or from the status it was given.
  // An order not told of yet (placing, or unknown before reconciliation found it) tells
  // order.placed in this write: nothing else will.
  // A write that matched nothing found the order moved on meanwhile (a fill, written by the fill
  // follower, racing the cancel): the answer says what it now is, never that the cancel was done.
  let from = [row.status, 'placing', status];
  for (let attempt = 0; attempt < 3; attempt++) {
    if (await markSignalCanceled(services.db.$client, row.id, from)) break;
    const now = await requireOrder(services, userId, orderId);
    if (FINAL.has(now.status)) break;
    from = [now.status];
  }
  const done = await requireOrder(services, userId, orderId);
  if (done.status !== 'canceled') throw new AppError('EXECUTION', `Order is ${done.status}: it could not be canceled`);
  return toApiOrder(done);
}
