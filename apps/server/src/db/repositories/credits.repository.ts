// Signal credits and their ledger (credit_ledger), outside the hook path: an account locked and
// read, then its new credits written together with the ledger rows that lead to them, in one
// statement. What the changes are is decided in modules/accounts/credits.ts; the hook's own
// batched statements (signals.repository.ts) spend and refund with the same rules.
import { type SQL, sql } from 'drizzle-orm';
import { creditEventSource } from './credit-events.sql.ts';
import type { Executor } from './executor.ts';
import { tellActivityChanged } from './live.repository.ts';
import { notificationEventCtes } from './notification-outbox.repository.ts';

/**
 * True when this database session does not meter signals (SIGNAL_CREDITS=unlimited): the pool
 * opens its connections with the setting (db/client.ts), so every statement of the server, the
 * hook's batched ones included, sees the same mode.
 */
export const UNMETERED_SQL = "coalesce(current_setting('router.signal_credits', true), '') = 'unlimited'";

export interface CreditState {
  credits: number;
  recurringCredits: number;
  recurringPeriodCredits: number;
  recurringPeriodEnd: Date | null;
  /** SIGNAL_CREDITS=unlimited on this connection. */
  unmetered: boolean;
}

export interface LedgerRow {
  id: number;
  userId: number;
  /** Milliseconds since the epoch, truncated (the stored time has microseconds). */
  createdAt: number;
  credits: number;
  recurring: number;
  cause: string;
  reference: string | null;
  balanceAfter: number;
  /** What the cause does not say (e.g. credits that lapsed with their plan period), or null. */
  note: string | null;
}

const LEDGER_COLUMNS = sql.raw(`id::float8 as id, user_id::float8 as "userId",
  floor(extract(epoch from created_at) * 1000)::float8 as "createdAt", credits, recurring, cause, reference,
  balance_after as "balanceAfter", note`);

type Row<T> = T & Record<string, unknown>;

async function selectLocked(db: Executor, userId: number): Promise<CreditState | undefined> {
  const { rows } = await db.execute<
    Row<Omit<CreditState, 'recurringPeriodEnd'> & { recurringPeriodEnd: string | null }>
  >(
    sql`select credits, recurring_credits as "recurringCredits", recurring_period_credits as "recurringPeriodCredits",
      recurring_period_end as "recurringPeriodEnd", ${sql.raw(UNMETERED_SQL)} as unmetered
    from accounts where user_id = ${userId} for update`,
  );
  const row = rows[0];
  if (!row) return undefined;
  return { ...row, recurringPeriodEnd: row.recurringPeriodEnd ? new Date(row.recurringPeriodEnd) : null };
}

/**
 * Locks the user's account until the transaction ends (creating an empty one for a user who has
 * none) and reads its credits. Run in READ COMMITTED (the default), so that statements after
 * the lock see what an earlier holder of it committed.
 */
export async function lockCredits(db: Executor, userId: number): Promise<CreditState> {
  const locked = await selectLocked(db, userId);
  if (locked) return locked;
  await db.execute(sql`insert into accounts (user_id) values (${userId}) on conflict (user_id) do nothing`);
  const created = await selectLocked(db, userId);
  if (!created) throw new Error(`no account for user ${userId}`);
  return created;
}

/**
 * Serializes, until the transaction ends, the transactions that may write this cause and
 * reference for different users: the account locks of lockCredits do not, so two of them would
 * both find no row and the second insert would break the unique index.
 */
export async function lockLedgerReference(db: Executor, cause: string, reference: string): Promise<void> {
  await db.execute(sql`select pg_advisory_xact_lock(hashtext('credit_ledger:' || ${cause} || ':' || ${reference}))`);
}

/** Whether the ledger already has a row of this cause and reference (they are unique together). */
export async function hasLedgerEntry(db: Executor, cause: string, reference: string): Promise<boolean> {
  const { rows } = await db.execute(
    sql`select 1 from credit_ledger where cause = ${cause} and reference = ${reference} limit 1`,
  );
  return rows.length > 0;
}

/** The ledger row of this cause and reference. */
export async function findLedgerEntry(db: Executor, cause: string, reference: string): Promise<LedgerRow | undefined> {
  const { rows } = await db.execute<Row<LedgerRow>>(
    sql`select ${LEDGER_COLUMNS} from credit_ledger where cause = ${cause} and reference = ${reference}`,
  );
  return rows[0];
}

/** The note of a signal's refund that kept its one-time credit: a refund of its pack took it back. */
export const KEPT_NOTE = 'credit kept: taken back by a refund of its pack';

/**
 * The note of the ledger rows of a plan changed within its period (credits.ts changeCreditPeriod):
 * the period goes on, with the new plan's credits; it neither started nor ended.
 */
export const PLAN_CHANGE_NOTE = 'plan changed within its period';

/**
 * SQL: whether the 'period' or 'lapse' row `p` (an alias) is a plan change's within its period.
 * Its note says so; rows written before the note existed are known by their shape: a change shown
 * by customer.subscription.updated is referenced '<subscription id>:<event id>' (a period's
 * rows, by its invoice id; a plan's end, 'ended:<subscription id>'); a change invoiced at once
 * writes a 'period' row of 0 credits when it added none (a period started gives its credits), and
 * a downgrade's 'lapse' row has the balance after of its own 'period' row (a period started lowers
 * the balance with its lapse, then raises it with its credits). An upgrade invoiced at once
 * before the note (one 'period' row of the difference) still reads as a period started.
 */
const planChangeSql = (p: string) =>
  `(${p}.note is not distinct from '${PLAN_CHANGE_NOTE}' or ${p}.reference like 'sub\\_%:%'
    or (${p}.cause = 'period' and ${p}.credits = 0)
    or (${p}.cause = 'lapse' and exists (select 1 from credit_ledger c where c.cause = 'period'
      and c.reference = ${p}.reference and c.user_id = ${p}.user_id and c.balance_after = ${p}.balance_after)))`;

/**
 * SQL: whether the plan period the ledger row `l` (an alias) was written in is over: a period
 * started or the plan ended after it (a 'period' or 'lapse' row of its user came later, other than
 * a plan change's within the period, planChangeSql; a user's rows are written under the account's
 * lock, so their ids and times follow its history).
 */
export const periodOverSinceSql = (l: string) =>
  `exists (select 1 from credit_ledger p where p.user_id = ${l}.user_id and p.created_at >= ${l}.created_at
    and p.id > ${l}.id and p.cause in ('period', 'lapse') and not ${planChangeSql('p')})`;

/**
 * The period credits used in the user's current plan period: what the rows since its start (the
 * last 'period' row other than a plan change's, planChangeSql) took from them (signals, a refund's
 * reversal) less what came back, the plan changes' own moves left out. A change that took the
 * credits left to 0 lost how far past its plan's credits the use went; this still tells it.
 */
export async function periodCreditsUsed(db: Executor, userId: number): Promise<number> {
  const { rows } = await db.execute<Row<{ used: number }>>(
    sql`select coalesce(-sum(l.recurring), 0)::int as used from credit_ledger l
      where l.user_id = ${userId}
        and l.id > coalesce((select max(p.id) from credit_ledger p where p.user_id = ${userId}
          and p.cause = 'period' and not ${sql.raw(planChangeSql('p'))}), 0)
        and not (l.cause in ('period', 'lapse') and ${sql.raw(planChangeSql('l'))})`,
  );
  return rows[0]?.used ?? 0;
}

/** Whether the plan period the ledger row `ledgerId` was written in is over (periodOverSinceSql). */
export async function periodOverSince(db: Executor, ledgerId: number): Promise<boolean> {
  const { rows } = await db.execute<Row<{ over: boolean }>>(
    sql`select ${sql.raw(periodOverSinceSql('l'))} as over from credit_ledger l where l.id = ${ledgerId}`,
  );
  return rows[0]?.over === true;
}

export interface NewLedgerEntry {
  credits: number;
  recurring: number;
  cause: string;
  reference: string | null;
  balanceAfter: number;
  /** credit_ledger.note: what an operator should know beyond the cause. */
  note?: string | null;
}

export interface CreditWrite {
  credits: number;
  recurringCredits: number;
  /** Set with a new plan period; unchanged when absent. */
  period?: { credits: number; end: Date | null };
  /** Added to metadata.creditsTotal (credits granted in total). */
  granted: number;
  /** Added to signals_spent. */
  spent: number;
  /**
   * The grant the low-credit mark is measured against after this change, when it is not the last
   * grant among the entries: a plan changed within its period, the new plan's credits per period.
   */
  grant?: number;
}

const creditsTotalAfter = (granted: number): SQL =>
  sql`jsonb_set(metadata, '{creditsTotal}', to_jsonb(
    case when jsonb_typeof(metadata -> 'creditsTotal') = 'number' then (metadata ->> 'creditsTotal')::numeric else 0 end
    + ${granted}))`;

/**
 * Causes that add credits without granting any: a signal's refund, an operator's adjustment, a
 * reversal given back (restore). credit_ledger_grants_idx leaves out the first two; the planner
 * still uses it for the longer list, which implies its predicate.
 */
const NOT_GRANTS = ['refund', 'adjustment', 'restore'];

/**
 * Writes a locked account's new credits and the ledger rows that lead to them (in their order),
 * in one statement. The caller holds the lock (lockCredits) and computed both from its state.
 * A balance crossing the low mark or reaching 0 emits credits.low / credits.exhausted there too.
 */
export async function writeCredits(
  db: Executor,
  userId: number,
  next: CreditWrite,
  entries: NewLedgerEntry[],
): Promise<LedgerRow[]> {
  const period = next.period
    ? sql`, recurring_period_credits = ${next.period.credits}, recurring_period_end = ${next.period.end?.toISOString() ?? null}::timestamptz`
    : sql``;
  const metadata = next.granted !== 0 ? sql`, metadata = ${creditsTotalAfter(next.granted)}` : sql``;
  // The last grant among the entries (lastGrantSql's rule), which the balance is measured against.
  const grant = next.grant ?? entries.findLast((e) => e.credits > 0 && !NOT_GRANTS.includes(e.cause))?.credits ?? null;
  const { rows } = await db.execute<Row<LedgerRow>>(sql`
    with previous as (
      select balance from accounts where user_id = ${userId}
    ), changed as (
      update accounts set credits = ${next.credits}, recurring_credits = ${next.recurringCredits},
        signals_spent = greatest(signals_spent + ${next.spent}, 0), updated_at = now() ${period} ${metadata}
      where user_id = ${userId}
      returning user_id, credits + recurring_credits as balance_after
    ), balance_change as (
      select c.user_id, p.balance as balance_before, c.balance_after from changed c, previous p
    ), credit_events as (${sql.raw(
      creditEventSource(
        'balance_change',
        grant === null ? undefined : `${grant}::int`,
        // The statement's own update is not visible to it: the plan's credits per period afterwards.
        next.period ? `${Math.trunc(next.period.credits)}::int` : undefined,
      ),
    )}),
    ${sql.raw(notificationEventCtes('credit_events'))}, added as (
      insert into credit_ledger (user_id, credits, recurring, cause, reference, balance_after, note)
      select c.user_id, e.credits, e.recurring, e.cause, e.reference, e."balanceAfter", e.note
      from changed c cross join json_to_recordset(${JSON.stringify(entries.map((e, ord) => ({ ...e, ord })))}::json)
        as e(credits int, recurring int, cause text, reference text, "balanceAfter" int, note text, ord int)
      order by e.ord
      returning *
    )
    select ${LEDGER_COLUMNS} from added order by id`);
  if (rows.length !== entries.length) throw new Error(`credit write for user ${userId} stored ${rows.length} rows`);
  // The balance on the owner's open screens (tiles, credits banner, Account & Billing) is stale now.
  await tellActivityChanged(db, userId);
  return rows;
}

export interface LedgerPage {
  userId: number;
  /** Only rows created strictly before this millisecond. */
  before?: number;
  limit: number;
}

/** Safety bound on a page grown by millisecond ties (see listLedger). */
const MAX_PAGE = 1000;

/**
 * Newest first. Like the activity log (action-query.repository.ts), a page never splits a
 * millisecond: the first `limit` rows plus every further row of the last one's millisecond (a
 * batch of signals shares one), so paging by `before` neither skips nor repeats rows.
 */
export async function listLedger(db: Executor, page: LedgerPage): Promise<LedgerRow[]> {
  const before = page.before === undefined ? sql`` : sql`and created_at < to_timestamp(${page.before}::float8 / 1000)`;
  const { rows } = await db.execute<Row<LedgerRow>>(sql`
    select ${LEDGER_COLUMNS} from credit_ledger
    where user_id = ${page.userId} ${before} and created_at >= (
      select date_trunc('milliseconds', min(p.created_at)) from (
        select created_at from credit_ledger where user_id = ${page.userId} ${before}
        order by created_at desc nulls last, id desc nulls last limit ${page.limit}
      ) p
    )
    order by created_at desc nulls last, id desc nulls last
    limit ${MAX_PAGE}`);
  return rows;
}

/** SQL: the credits per period of the plan the account `g.user_id` holds now (0: none). */
const PERIOD_CREDITS_SQL = '(select a.recurring_period_credits from accounts a where a.user_id = g.user_id)';

/**
 * SQL: what the grant `g` (a ledger row) counts as for the low-credit mark. A plan period's is the
 * plan's credits per period as the account holds them (`periodCredits`, an SQL expression; by
 * default as stored now): a plan changed within its period granted the difference (or nothing, a
 * downgrade), yet its period is the new plan's.
 */
export const grantCreditsSql = (periodCredits = PERIOD_CREDITS_SQL) =>
  `case when g.cause = 'period' then ${periodCredits} else g.credits end`;

/**
 * SQL: the credits of the most recent grant of the user `userId` (an SQL expression; a plan
 * period's as grantCreditsSql counts them), or null; `columns` of that ledger row `g` instead,
 * as a row (credit-events.sql.ts). A plan's periods count only while the account has a plan that
 * gives credits (`periodCredits` > 0): once it ended, what is left are credits granted otherwise
 * (a pack, a reward, sign-up), measured against the last of those; none: no low mark.
 */
export const lastGrantSql = (userId: string, columns = grantCreditsSql(), periodCredits = PERIOD_CREDITS_SQL) =>
  `(select ${columns} from credit_ledger g
    where g.user_id = ${userId} and g.credits > 0 and g.cause not in (${NOT_GRANTS.map((c) => `'${c}'`).join(', ')})
      and (g.cause <> 'period' or ${periodCredits} > 0)
    order by g.created_at desc nulls last, g.id desc nulls last limit 1)`;

/** The credits of the user's most recent grant (credit_ledger_grants_idx), or null. */
export async function lastGrant(db: Executor, userId: number): Promise<number | null> {
  const { rows } = await db.execute<Row<{ credits: number | null }>>(
    sql`select ${sql.raw(lastGrantSql('u.id'))} as credits from (select ${userId}::bigint as id) u`,
  );
  return rows[0]?.credits ?? null;
}

/** The sum of the user's ledger and the account's balance: equal unless something is wrong. */
export async function ledgerBalance(db: Executor, userId: number): Promise<{ ledger: number; balance: number | null }> {
  const { rows } = await db.execute<Row<{ ledger: number; balance: number | null }>>(sql`
    select coalesce((select sum(credits) from credit_ledger where user_id = ${userId}), 0)::int as ledger,
      (select balance from accounts where user_id = ${userId}) as balance`);
  return rows[0] ?? { ledger: 0, balance: null };
}
