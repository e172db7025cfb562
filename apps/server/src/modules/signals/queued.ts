// What a user sees of their queued signals (outsideWindow: "queue"), and cancelling one that has
// not been placed yet. A signal being placed at this very moment (claimed) cannot be cancelled.

import { recordAction } from '../../db/repositories/action.repository.ts';
import type { Executor } from '../../db/repositories/executor.ts';
import {
  cancelQueuedSignal,
  listQueuedSignals,
  lockQueuedOfDeletedHooks,
  type QueuedSignalRow,
} from '../../db/repositories/queued-signals.repository.ts';
import { findSignalState } from '../../db/repositories/signals.repository.ts';
import { AppError } from '../../errors.ts';
import type { Services } from '../../services.ts';
import type { Actor } from '../connectors/index.ts';
import { queuedSignalId } from './signal-id.ts';

export interface QueuedSignalView {
  id: string;
  hookKey: string;
  hookName: string;
  status: string;
  /** When its window opens (ms since epoch): when it will be (or was) placed. */
  placeAt: number;
  createdAt: number;
  completedAt: number | null;
  order: string;
  request: string;
  /** The signal path's answer once placed or refused; null while queued. */
  response: string | null;
}

const MAX_LISTED = 200;

const view = (row: QueuedSignalRow): QueuedSignalView => ({
  id: row.id,
  hookKey: row.hook_key,
  hookName: row.hook_name,
  status: row.status,
  placeAt: row.release_at.getTime(),
  createdAt: row.created_at.getTime(),
  completedAt: row.completed_at?.getTime() ?? null,
  order: JSON.stringify(row.order),
  request: row.request,
  response: row.response === null ? null : JSON.stringify(row.response),
});

export async function queuedSignals(services: Services, actor: Actor, limit = 50): Promise<QueuedSignalView[]> {
  const rows = await listQueuedSignals(services.db.$client, actor.userId, Math.min(Math.max(limit, 1), MAX_LISTED));
  return rows.map(view);
}

export async function cancelQueued(services: Services, actor: Actor, id: string): Promise<QueuedSignalView> {
  // A claim that placed it and died before writing so left it queued, its lease run out: its
  // signal (stored under the id derived from the queued one) is placed, and the next claim says so.
  // Looked at first: a claim taking it after this look sets its lease, which cancelling respects.
  const placed = (await findSignalState(services.db.$client, queuedSignalId(id))) !== undefined;
  const row = await cancelQueuedSignal(services.db.$client, actor.userId, id, placed);
  if (!row) throw new AppError('NOT_FOUND', 'Queued signal not found');
  if (!row.cancelled) {
    const why = row.status === 'queued' ? 'it is being placed now' : `it is already ${row.status}`;
    throw new AppError('VALIDATION', `Queued signal cannot be cancelled: ${why}`);
  }
  await logCancelled(services.db, actor, { id: row.id, hookKey: row.hook_key });
  return view(row);
}

const logCancelled = (db: Executor, actor: Actor, metadata: { id: string; hookKey: string; reason?: string }) =>
  recordAction(db, { userId: actor.userId, code: 'QueuedSignalCancel', address: actor.address, metadata });

/**
 * Inside the transaction deleting a hook (or its connector, with its hooks): the signals it still
 * had queued go with it, never placed. Each was answered 202 and logged 'queued': its end is
 * logged as a cancel, as one cancelled by hand is.
 */
export async function cancelQueuedOfDeletedHooks(
  tx: Executor,
  actor: Actor,
  of: { hookId: number } | { connectorId: number },
): Promise<void> {
  for (const queued of await lockQueuedOfDeletedHooks(tx, of)) {
    await logCancelled(tx, actor, { ...queued, reason: 'webhook deleted' });
  }
}
