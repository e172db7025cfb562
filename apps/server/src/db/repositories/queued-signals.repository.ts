// Signals held until their hook's trading window opens (outsideWindow: "queue",
// modules/signals/queue.ts). Claimed with a lease like reconciliation's signals: the due rows are
// picked FOR UPDATE SKIP LOCKED inside one short UPDATE, so two instances never claim one row, and
// every later write is fenced by the claim (owner and attempt).
import { sql } from 'drizzle-orm';
import type { Executor } from './executor.ts';
import type { Queryable } from './signals.repository.ts';

export interface NewQueuedSignal {
  id: string;
  userId: number;
  hookId: number;
  key: string;
  request: string;
  order: string;
  address: string | null;
  releaseAt: Date;
}

export interface QueuedSignalRow {
  id: string;
  hook_id: string;
  short_key: string;
  hook_key: string;
  hook_name: string;
  key: string;
  request: string;
  order: unknown;
  address: string | null;
  status: string;
  release_at: Date;
  response: unknown;
  attempts: number;
  created_at: Date;
  completed_at: Date | null;
}

const COLUMNS = `q.id, q.hook_id, h.short_key, h.key as hook_key, h.name as hook_name, q.key, q.request, q."order",
  q.address, q.status, q.release_at, q.response, q.attempts, q.created_at, q.completed_at`;

/** Queues the signal; a repeat of one still queued (same hook and key) gets that one instead. */
export async function insertQueuedSignal(db: Queryable, s: NewQueuedSignal): Promise<{ id: string; releaseAt: Date }> {
  // A repeat queued at the same moment by another transaction makes the insert do nothing, yet
  // is not in this statement's snapshot: the next statement sees it.
  for (let attempt = 0; attempt < 3; attempt++) {
    const { rows } = await db.query<{ id: string; release_at: Date }>({
      name: 'queued_signals_insert',
      text: `with inserted as (
          insert into queued_signals (id, user_id, hook_id, key, request, "order", address, release_at)
          values ($1, $2, $3, $4, $5, $6::jsonb, $7, $8)
          on conflict (hook_id, key) where status = 'queued' do nothing
          returning id, release_at)
        select id, release_at from inserted
        union all
        select id, release_at from queued_signals
          where hook_id = $3 and key = $4 and status = 'queued' and not exists (select 1 from inserted)`,
      values: [s.id, s.userId, s.hookId, s.key, s.request, s.order, s.address, s.releaseAt],
    });
    const [row] = rows;
    if (row) return { id: row.id, releaseAt: row.release_at };
  }
  throw new Error('queued signal neither inserted nor found');
}

/** Claims up to `limit` queued signals due at `at` and not leased (or whose lease ran out). */
export async function claimDueQueuedSignals(
  db: Queryable,
  o: { owner: string; leaseMs: number; at: Date; limit: number },
): Promise<QueuedSignalRow[]> {
  const { rows } = await db.query<QueuedSignalRow>({
    name: 'queued_signals_claim',
    text: `with claimed as (
        update queued_signals s set lease_owner = $1, lease_until = now() + $2 * interval '1 millisecond',
          attempts = s.attempts + 1
        where s.id in (
          select id from queued_signals
          where status = 'queued' and release_at <= $3 and (lease_until is null or lease_until < now())
          order by release_at limit $4
          for update skip locked)
        returning s.*)
      select ${COLUMNS} from claimed q join hooks h on h.id = q.hook_id`,
    values: [o.owner, o.leaseMs, o.at, o.limit],
  });
  return rows;
}

/**
 * The hook's trading windows changed: its signals still waiting (not being placed right now) are
 * due at `releaseAt`, when its windows as they are now open, not when the old ones did.
 */
export async function rescheduleQueuedSignals(db: Executor, hookId: number, releaseAt: Date): Promise<void> {
  await db.execute(sql`update queued_signals set release_at = ${releaseAt.toISOString()}::timestamptz
    where hook_id = ${hookId} and status = 'queued' and (lease_until is null or lease_until < now())`);
}

/** When the next queued signal after `after` is due (queued_signals_due_idx), or null. */
export async function nextQueuedRelease(db: Queryable, after: Date): Promise<Date | null> {
  const { rows } = await db.query<{ release_at: Date }>({
    name: 'queued_signals_next',
    text: `select release_at from queued_signals where status = 'queued' and release_at > $1
      order by release_at limit 1`,
    values: [after],
  });
  return rows[0]?.release_at ?? null;
}

/** The claim's end: placed or refused (with the answer), or queued again until `releaseAt`. */
export async function finishQueuedSignal(
  db: Queryable,
  claim: { id: string; owner: string; attempt: number },
  end: { status: 'placed' | 'refused'; response: unknown } | { status: 'queued'; releaseAt: Date },
): Promise<boolean> {
  const queuedAgain = end.status === 'queued';
  const { rowCount } = await db.query({
    name: 'queued_signals_finish',
    text: `update queued_signals set status = $4, lease_owner = null, lease_until = null,
        response = coalesce($5::jsonb, response), release_at = coalesce($6, release_at),
        completed_at = case when $4 = 'queued' then null else now() end
      where id = $1 and lease_owner = $2 and attempts = $3 and status = 'queued'`,
    values: [
      claim.id,
      claim.owner,
      claim.attempt,
      end.status,
      queuedAgain ? null : JSON.stringify(end.response),
      queuedAgain ? end.releaseAt : null,
    ],
  });
  return (rowCount ?? 0) > 0;
}

/** The user's queued signals (those still waiting first, then the latest done), newest first. */
export async function listQueuedSignals(db: Queryable, userId: number, limit: number): Promise<QueuedSignalRow[]> {
  const { rows } = await db.query<QueuedSignalRow>({
    name: 'queued_signals_list',
    text: `select ${COLUMNS} from queued_signals q join hooks h on h.id = q.hook_id
      where q.user_id = $1 order by (q.status = 'queued') desc, q.created_at desc limit $2`,
    values: [userId, limit],
  });
  return rows;
}

/**
 * Cancels the user's queued signal unless a claim is placing it right now (or, `placed`, a lost
 * claim placed it already); the row as it is after (`cancelled`: by this call), undefined when not
 * the user's.
 */
export async function cancelQueuedSignal(
  db: Queryable,
  userId: number,
  id: string,
  placed = false,
): Promise<(QueuedSignalRow & { cancelled: boolean }) | undefined> {
  const { rows } = await db.query<QueuedSignalRow & { cancelled: boolean }>({
    name: 'queued_signals_cancel',
    text: `with cancelled as (
        update queued_signals set status = 'cancelled', completed_at = now(),
          response = jsonb_build_object('status', 'cancelled', 'status_description', 'Cancelled before its window opened')
        where id = $2 and user_id = $1 and status = 'queued' and (lease_until is null or lease_until < now())
          and not $3::boolean
        returning *)
      select ${COLUMNS}, true as cancelled from cancelled q join hooks h on h.id = q.hook_id
      union all
      select ${COLUMNS}, false from queued_signals q join hooks h on h.id = q.hook_id
        where q.id = $2 and q.user_id = $1 and not exists (select 1 from cancelled)`,
    values: [userId, id, placed],
  });
  return rows[0];
}

/**
 * The signals still waiting (none being placed right now) of hooks about to be deleted, by hook or
 * by their connector, locked so no sweep claims one meanwhile (it skips locked rows): the rows go
 * with their hooks (foreign key cascade), and their end is logged by the caller.
 */
export async function lockQueuedOfDeletedHooks(
  db: Executor,
  of: { hookId: number } | { connectorId: number },
): Promise<Array<{ id: string; hookKey: string }>> {
  const hooksOf = 'hookId' in of ? sql`h.id = ${of.hookId}` : sql`h.connector_id = ${of.connectorId}`;
  const { rows } = await db.execute<{ id: string; hook_key: string }>(sql`select q.id, h.key as hook_key
    from queued_signals q join hooks h on h.id = q.hook_id
    where ${hooksOf} and q.status = 'queued' and (q.lease_until is null or q.lease_until < now())
    order by q.created_at for update of q`);
  return rows.map((row) => ({ id: row.id, hookKey: row.hook_key }));
}
