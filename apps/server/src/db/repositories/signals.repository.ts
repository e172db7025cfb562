// The hook's SQL: named (prepared once per connection) statements on the pool, one round trip
// each. The store statement claims the idempotency keys, takes the credits (with one ledger row
// per signal) and inserts the signals of a whole batch at once; the signals_live_credit_check
// constraint aborts it when a user's credits do not cover the batch. The credit rules are those
// of modules/accounts/credits.ts: period credits first, one-time credits next; a refund gives
// back what the signal's ledger row took (its period credits only while their period runs).
// SIGNAL_CREDITS=unlimited (UNMETERED_SQL): live
// signals hold their credit without taking one, and nothing is given back.
import type pg from 'pg';
import { creditEventSource } from './credit-events.sql.ts';
import { KEPT_NOTE, periodOverSinceSql, UNMETERED_SQL } from './credits.repository.ts';
import { dayOf } from './hook-counts.repository.ts';
import { activityChangedSql } from './live.repository.ts';
import { notificationEventCtes } from './notification-outbox.repository.ts';
import { orderEventTypesSql, signalEventSource } from './signal-events.sql.ts';

/** The pool or one client of it (a rationed batch is stored inside a transaction). */
export type Queryable = Pick<pg.Pool, 'query'> | pg.PoolClient;

export interface NewSignal {
  id: string;
  hookId: number;
  key: string;
  userId: number;
  isTest: boolean;
  connectorId: number;
  accountId: string;
  providerName: string;
  /** JSON text of the body as received. */
  request: string;
  /** JSON text of the normalized order. */
  order: string;
  /** JSON text of the answer, known up front for test hooks. */
  response: string | null;
  address: string | null;
  /** When the hook's maxOrdersPer* count of it was taken (takeHookCount's instant), or null. */
  dayCountedAt?: string | null;
  /** Who placed a REST API order (HookEntry.via); absent for a webhook's signal. */
  via?: string;
}

/** storeSignals' statement, built once (a text made per call is a fresh string of ~5 KB). */
const STORE = `with input as (
    select * from json_to_recordset($1::json) as t(id text, "hookId" bigint, key text, "userId" bigint,
      "isTest" boolean, "connectorId" bigint, "accountId" text, "providerName" text, request text, "order" text,
      response text, address text, "dayCountedAt" timestamptz, via text, position int)
  ), claimed as (
    insert into signal_keys as k (hook_id, key, signal_id, expires_at)
    select "hookId", key, id, now() + $2 * interval '1 second' from input
    on conflict (hook_id, key) do update set
      signal_id = case when k.expires_at < now() then excluded.signal_id else k.signal_id end,
      expires_at = case when k.expires_at < now() then excluded.expires_at else k.expires_at end
    returning k.hook_id, k.key, k.signal_id
  ), fresh as (
    select i.* from input i join claimed c on c.signal_id = i.id
  ), live as (
    select id, "userId" as user_id, row_number() over (partition by "userId" order by position) as rank
    from fresh where not "isTest" and not ${UNMETERED_SQL}
  ), wanted as (
    select user_id, count(*)::int as n from live group by user_id
  ), held as materialized (
    select a.user_id, a.credits, a.recurring_credits, w.n from accounts a join wanted w on w.user_id = a.user_id
    order by a.user_id for update of a
  ), credit as (
    update accounts a set recurring_credits = greatest(h.recurring_credits - h.n, 0),
      credits = h.credits - greatest(h.n - h.recurring_credits, 0), signals_spent = a.signals_spent + h.n,
      updated_at = now()
    from held h where a.user_id = h.user_id and h.credits + h.recurring_credits >= h.n
    returning a.user_id, h.recurring_credits as recurring_before, h.credits + h.recurring_credits as balance_before,
      h.credits + h.recurring_credits - h.n as balance_after
  ), credit_events as (${creditEventSource('credit')}),
  ${notificationEventCtes('credit_events')}, spent as (
    insert into credit_ledger (user_id, credits, recurring, cause, reference, balance_after)
    select l.user_id, -1, case when l.rank <= c.recurring_before then -1 else 0 end, 'signal', l.id,
      c.balance_before - l.rank
    from live l join credit c on c.user_id = l.user_id
    order by l.user_id, l.rank
  ), stored as (
    insert into signals (id, user_id, hook_id, connector_id, account_id, provider_name, is_test, status,
      request, "order", response, credit_held, address, day_counted_at, via, completed_at)
    select id, "userId", "hookId", "connectorId", "accountId", "providerName", "isTest",
      case when "isTest" then 'draft' else 'placing' end, request::jsonb, "order"::jsonb, response::jsonb,
      not "isTest" and (${UNMETERED_SQL} or "userId" in (select user_id from credit)), address, "dayCountedAt", via,
      case when "isTest" then now() end
    from fresh
    returning id
  )
  select c.signal_id as owner from input i join claimed c on c.hook_id = i."hookId" and c.key = i.key
  order by i.position`;

/**
 * Stores signals in one statement (one commit when run on the pool): claims each idempotency key
 * (`windowSeconds` long; a claim past its window is taken over), takes one credit per new live
 * signal — all of a user's or none: `balance >= n`, the accounts locked in user order — writes
 * one 'signal' ledger row each (reference: the signal id), and inserts the new signals. Returns, per
 * signal in order, the id owning its key: its own when stored, the first's when it repeats one.
 * Keys must be distinct within one call (ON CONFLICT cannot touch a row twice). A user short of
 * credits aborts the statement on signals_live_credit_check (isNoCreditError).
 */
export async function storeSignals(db: Queryable, signals: NewSignal[], windowSeconds: number): Promise<string[]> {
  // One JSON parameter (JSON.stringify is native; pg's array literals escape every element in JS).
  const input = signals.map((s, position) => ({ ...s, position }));
  const { rows } = await db.query<{ owner: string }>({
    name: 'signals_store',
    text: STORE,
    values: [JSON.stringify(input), windowSeconds],
  });
  if (rows.length !== signals.length) throw new Error(`signals store returned ${rows.length} of ${signals.length}`);
  return rows.map((row) => row.owner);
}

/** Locks the users' credit balances (in user order, so two lockers cannot deadlock) and reads them. */
export async function lockBalances(db: Queryable, userIds: number[]): Promise<Map<number, number>> {
  const { rows } = await db.query<{ user_id: string; balance: number }>({
    name: 'signals_lock_balances',
    text: 'select user_id, balance from accounts where user_id = any($1::bigint[]) order by user_id for update',
    values: [userIds],
  });
  return new Map(rows.map((row) => [Number(row.user_id), row.balance]));
}

/** The keys among `pairs` claimed and still inside their window, as `hookId:key`. */
export async function claimedKeys(db: Queryable, pairs: Array<{ hookId: number; key: string }>): Promise<Set<string>> {
  const { rows } = await db.query<{ hook_id: string; key: string }>({
    name: 'signals_claimed_keys',
    text: `select k.hook_id, k.key from signal_keys k
      join unnest($1::bigint[], $2::text[]) as p(hook_id, key) on k.hook_id = p.hook_id and k.key = p.key
      where k.expires_at >= now()`,
    values: [pairs.map((p) => p.hookId), pairs.map((p) => p.key)],
  });
  return new Set(rows.map((row) => `${row.hook_id}:${row.key}`));
}

/** The signal owning a hook's idempotency key while it is inside its window, or undefined. */
export async function findKeyOwner(db: Queryable, hookId: number, key: string): Promise<string | undefined> {
  const { rows } = await db.query<{ signal_id: string }>({
    name: 'signal_key_owner',
    text: 'select signal_id from signal_keys where hook_id = $1 and key = $2 and expires_at >= now()',
    values: [hookId, key],
  });
  return rows[0]?.signal_id;
}

/**
 * Frees a hook's idempotency key from the signal holding it (a signal the broker refused for a
 * passing reason, placing nothing): the sender's retry with it is a new order, not its repeat.
 */
export async function releaseSignalKey(db: Queryable, hookId: number, key: string, signalId: string): Promise<void> {
  await db.query({
    name: 'signal_key_release',
    text: 'delete from signal_keys where hook_id = $1 and key = $2 and signal_id = $3',
    values: [hookId, key, signalId],
  });
}

/** The check constraint that refuses a live signal without a credit. */
export function isNoCreditError(error: unknown): boolean {
  const e = error as { code?: string; constraint?: string } | null;
  return e?.code === '23514' && e.constraint === 'signals_live_credit_check';
}

/** Data the body carried that PostgreSQL cannot store (\u0000, unpaired surrogates, absurd depth). */
export function isUnstorableInput(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code ?? '';
  return (code.startsWith('22') && code !== '22012') || code === '54001';
}

export interface SignalOutcome {
  id: string;
  /** The status the row must still have (the move's origin): a late write never undoes a newer one. */
  from: string;
  status: string;
  brokerOrderId: string | null;
  price: number | null;
  /** JSON text of the answer given; kept when one was already stored (the first answer stands). */
  response: string | null;
  elapsedMs: number | null;
  /** Give the held credit back (refusal, certain failure), and its maxOrdersPerDay count (dayCountedAt). */
  releaseCredit: boolean;
  /** Why it was rejected or failed (the broker's message): order.rejected's `message`. */
  message?: string | null;
  /** Reconciliation's claim: written only while the row is still this claim's (owner and attempt). */
  leaseOwner?: string;
  attempt?: number;
}

/** recordSignalOutcomes' statement, built once. */
const OUTCOMES = `with input as (
    select * from json_to_recordset($1::json) as t(id text, "from" text, status text, "brokerOrderId" text,
      price float8, response text, "elapsedMs" int, "releaseCredit" boolean, "leaseOwner" text, attempt int,
      message text)
  ), updated as (
    update signals s set status = i.status, broker_order_id = coalesce(i."brokerOrderId", s.broker_order_id),
      price = coalesce(i.price, s.price), response = coalesce(s.response, i.response::jsonb),
      elapsed_ms = coalesce(s.elapsed_ms, i."elapsedMs"),
      completed_at = case when i.status in ('placing', 'unknown') then null else now() end,
      credit_held = s.credit_held and not i."releaseCredit",
      day_counted_at = case when i."releaseCredit" then null else s.day_counted_at end
    from input i
    -- The ids as one array parameter for signals_pkey: with only the join, the generic plan made
    -- while the table was small (a fresh database) seq-scans it, however large it has grown.
    where s.id = any((select array_agg(id) from input)::text[]) and s.id = i.id and s.status = i."from"
      and (i."leaseOwner" is null or (s.lease_owner = i."leaseOwner" and s.attempts = i.attempt))
    returning s.id, s.user_id, s.credit_held, s.hook_id, s.connector_id, s.account_id, s.provider_name, s.is_test,
      s.status, s."order", s.broker_order_id, s.price, s.day_counted_at, s.credit_claimed, i.message,
      i.response is null as late,
      ${orderEventTypesSql('s.status', 'i."from"', 's."order"')} as types
  ), released as (
    -- credit_claimed as the row stands after its lock (updated's RETURNING): a pack's refund
    -- claiming the credit, or ending that claim, may commit after this statement started.
    select u.id, u.user_id, u.credit_claimed as claimed from signals s join updated u on u.id = s.id
    where s.credit_held and not u.credit_held
  ), uncounted as (
    -- Placed nothing: its maxOrdersPerDay count goes back with its credit, once (the column is
    -- cleared by this write), to the day it was taken for (a later day's count starts afresh), in
    -- the hook's dayTimeZone (checked by PostgreSQL when saved) from its dayStartsAt (HH:MM), as
    -- takeHookCount dates it.
    select s.hook_id,
      ${dayOf('s.day_counted_at', "coalesce(h.rules->>'dayTimeZone', 'UTC')", "coalesce(h.rules->>'dayStartsAt', '00:00')")} as day,
      count(*)::int as n
    from signals s join updated u on u.id = s.id join hooks h on h.id = s.hook_id
    where s.day_counted_at is not null and u.day_counted_at is null and s.hook_id is not null
    group by s.hook_id, day
  ), counts_held as materialized (
    select c.hook_id from hook_order_counts c join uncounted d on d.hook_id = c.hook_id and d.day = c.day
    order by c.hook_id for update of c
  ), day_released as (
    update hook_order_counts c set day_count = greatest(c.day_count - d.n, 0)
    from counts_held h join uncounted d on d.hook_id = h.hook_id
    where c.hook_id = h.hook_id and c.day = d.day
    returning c.hook_id
  ), refunds as (
    -- Period credits come back only while the period they were spent in runs: none started and
    -- the plan not ended since (periodOverSinceSql); else they lapsed with it.
    select r.user_id, r.id, coalesce(-l.credits, case when ${UNMETERED_SQL} then 0 else 1 end) as credits,
      case when l.recurring < 0 and not ${periodOverSinceSql('l')} then -l.recurring else 0 end
        as recurring,
      coalesce(-l.recurring, 0) as spent_recurring, row_number() over (partition by r.user_id order by r.id) as rank,
      -- A one-time credit a pack's reversal claimed (held-credits.repository.ts) stays taken.
      case when l.credits < l.recurring and r.claimed then l.recurring - l.credits else 0 end as kept
    from released r left join credit_ledger l on l.cause = 'signal' and l.reference = r.id
  ), due as (
    select user_id, sum(credits)::int as n from refunds where credits > 0 group by user_id
  ), held as materialized (
    select a.user_id, a.credits, a.recurring_credits, a.recurring_period_credits from accounts a
    join due d on d.user_id = a.user_id
    order by a.user_id for update of a
  ), back as (
    -- What goes back to the period, never above the credits the running period gives (none once
    -- the plan ended); the rest of what the period gave lapsed.
    select y.*, y.credits - y.spent_recurring - y.kept + y.recurring as back from (
      select f.user_id, f.id, f.rank, f.credits, f.spent_recurring, f.kept, least(f.recurring,
        greatest(h.recurring_period_credits - h.recurring_credits - (sum(f.recurring) over w - f.recurring), 0))
        as recurring
      from refunds f join held h on h.user_id = f.user_id where f.credits > 0
      window w as (partition by f.user_id order by f.rank)
    ) y
  ), total as (
    select user_id, sum(back)::int as n, sum(recurring)::int as r from back group by user_id
  ), refunded as (
    update accounts a set credits = h.credits + t.n - t.r, recurring_credits = h.recurring_credits + t.r,
      signals_spent = greatest(a.signals_spent - d.n, 0), updated_at = now()
    from held h join due d on d.user_id = h.user_id join total t on t.user_id = h.user_id where a.user_id = h.user_id
    returning a.user_id, h.credits + h.recurring_credits as balance_before
  ), ledger as (
    insert into credit_ledger (user_id, credits, recurring, cause, reference, balance_after, note)
    select f.user_id, f.back, f.recurring, 'refund', f.id,
      b.balance_before + sum(f.back) over (partition by f.user_id order by f.rank),
      case when f.kept > 0 then '${KEPT_NOTE}' when f.back < f.credits then format('%s of %s credits lapsed with their plan period', f.credits - f.back,
        f.credits) end
    from back f join refunded b on b.user_id = f.user_id
    order by f.user_id, f.rank
  ), told as (${activityChangedSql('updated', 'late')}),
  order_events as (${signalEventSource('updated')}),
  ${notificationEventCtes('order_events')}
  select (select count(*) from told)`;

/**
 * Records brokers' outcomes (one statement for many signals, distinct ids); gives back the held
 * credits of those asking for it in the same statement (and their hooks' maxOrdersPerDay counts,
 * which the write clears from the row, so never twice), each with a 'refund' ledger row: what
 * the signal's 'signal' row took, to the same pools (a signal without one, stored before the
 * ledger existed, gets one one-time credit; none when not metered) — period credits only while
 * the period they were spent in runs and up to its credits, else they lapsed (the row's note
 * says so); signalsSpent drops by the whole signal. A row that left `from`, or
 * whose lease another claim took over, is left as it is. Each row written emits its
 * notification events (order.placed, order.filled, order.rejected) in the same statement, and
 * tells the owners' screens (live updates) of outcomes that come after the call's activity entry:
 * those not given as the answer (an answer at the deadline, reconciliation, a fill followed
 * later). An outcome answered is written before its entry, whose insert tells them.
 */
export async function recordSignalOutcomes(db: Queryable, outcomes: SignalOutcome[]): Promise<void> {
  await db.query({
    name: 'signals_outcomes',
    text: OUTCOMES,
    values: [JSON.stringify(outcomes)],
  });
}

/** The answer given at the deadline, while the broker call goes on. */
export async function recordSignalAnswer(db: Queryable, id: string, response: string, elapsedMs: number) {
  await db.query({
    name: 'signal_answer',
    text: 'update signals set response = coalesce(response, $2), elapsed_ms = coalesce(elapsed_ms, $3) where id = $1',
    values: [id, response, elapsedMs],
  });
}

export interface SignalState {
  status: string;
  response: unknown;
  broker_order_id: string | null;
  price: number | null;
}

/** The normalized order a signal was stored with (parsed jsonb), to tell a resend from another order. */
export async function findSignalOrder(db: Queryable, id: string): Promise<unknown> {
  const { rows } = await db.query<{ order: unknown }>({
    name: 'signal_order',
    text: 'select "order" from signals where id = $1',
    values: [id],
  });
  return rows[0]?.order;
}

/** The body a signal was placed with (parsed JSON, as stored), to tell a retry from another order. */
export async function findSignalRequest(db: Queryable, id: string): Promise<unknown> {
  const { rows } = await db.query<{ request: unknown }>({
    name: 'signal_request',
    text: 'select request from signals where id = $1',
    values: [id],
  });
  return rows[0]?.request;
}

export async function findSignalState(db: Queryable, id: string): Promise<SignalState | undefined> {
  const { rows } = await db.query<SignalState>({
    name: 'signal_state',
    text: 'select status, response, broker_order_id, price from signals where id = $1',
    values: [id],
  });
  return rows[0];
}
