// Reading the activity log (SPEC §3 Action, §7 actions/action), always scoped to one user.
import { HIDDEN_SHORT_KEY, type ProviderTitles } from '@router/shared';
import { type SQL, sql } from 'drizzle-orm';
import { describeActionSql } from './action-description.sql.ts';
import type { Executor } from './executor.ts';
import { QUEUED_CALL, REFUSED_CALL } from './stats.repository.ts';

export interface ActionRow {
  id: number;
  code: string;
  address: string | null;
  metadata: unknown;
  /** Milliseconds since the epoch, truncated (the stored time has microseconds). */
  createdAt: number;
  /** An Order entry's stored signal, as it is now; null for other entries and refused calls. */
  signal: SignalFacts | null;
  /** A repeat of a stored signal (resent by its sender): answered as the first, nothing placed. */
  repeat: boolean;
  /**
   * A call answered 'queued' (queue.ts): its queued signal's status now (queued, placed, refused,
   * cancelled); null for other entries and once the queued signal is gone with its webhook.
   */
  queuedStatus: string | null;
}

export interface SignalFacts {
  status: string;
  /** The normalized order sent to the broker. */
  order: unknown;
  brokerOrderId: string | null;
  /** Average fill price. */
  price: number | null;
  /** Its outcome is final: an 'unknown' one is no longer looked up at the broker. */
  completed: boolean;
}

/**
 * A trade line's result (issue #21), as the activity filter names it. 'queued': a call answered
 * 202 outside its webhook's trading windows (queue.ts); its placement is an entry of its own.
 */
export type TradeResult = 'placed' | 'filled' | 'rejected' | 'refused' | 'queued' | 'unknown' | 'draft';

export interface ActionFilter {
  userId: number;
  code?: string;
  /** Only actions created strictly before this millisecond. */
  before?: number;
  /** Case-insensitive substring of the request text or the description. */
  search?: string;
  /** Provider titles the description shows (describeAction's), for `search`. */
  titles?: ProviderTitles;
  /** Search the description as admin proxy mode shows it: without the webhooks' shortKeys. */
  withoutShortKeys?: boolean;
  /** Only actions created at or after this millisecond. */
  since?: number;
  /** Order entries only, by result, webhook key, broker or symbol (case-insensitive). */
  result?: TradeResult;
  hookKey?: string;
  providerName?: string;
  /**
   * Spellings of one symbol, upper-case, without an exchange prefix (symbolSpellings): an entry's
   * symbol (its normalized order's, or its refused request's, prefix dropped) matches one of them.
   */
  symbols?: readonly string[];
  /** Only the entries of this signal (a notification's link). */
  signalId?: string;
  limit: number;
}

/** An entry's metadata with its webhook's shortKey hidden (hideShortKeys of list-actions.ts). */
const HIDDEN = `to_jsonb('${HIDDEN_SHORT_KEY}'::text)`;
const HOOK_HIDDEN = `(case when jsonb_typeof(a.metadata -> 'hook') = 'string' then jsonb_set(a.metadata, '{hook}', ${HIDDEN})
  when a.metadata -> 'hook' ? 'shortKey' then jsonb_set(a.metadata, '{hook,shortKey}', ${HIDDEN}) else a.metadata end)`;
const WITHOUT_SHORT_KEYS_SQL = `(case when a.metadata ? 'shortKey' then jsonb_set(${HOOK_HIDDEN}, '{shortKey}', ${HIDDEN})
  else ${HOOK_HIDDEN} end)`;

/** Safety bound on a page grown by millisecond ties (see listActions). */
const MAX_PAGE = 1000;

/** An Order entry of a stored signal keeps no request: it is read from the signal's row. */
const SIGNAL_REQUEST = sql`(select s.request from signals s
  where s.id = a.metadata ->> 'signalId' and s.user_id = a.user_id)`;
const REQUEST = sql`coalesce(a.metadata -> 'request', ${SIGNAL_REQUEST})`;
const SIGNAL_STATUS = sql`(select s.status from signals s where s.id = a.metadata ->> 'signalId' and s.user_id = a.user_id)`;
const SIGNAL_SYMBOL = sql`(select s.order ->> 'symbol' from signals s
  where s.id = a.metadata ->> 'signalId' and s.user_id = a.user_id)`;
const SIGNAL_FACTS = sql`(select jsonb_build_object('status', s.status, 'order', s.order,
    'brokerOrderId', s.broker_order_id, 'price', s.price, 'completed', s.completed_at is not null)
  from signals s where s.id = a.metadata ->> 'signalId' and s.user_id = a.user_id)`;

/** Stored statuses per result; any other broker status ('accepted', 'open', …) reads as placed. */
const STATUSES_OF: Record<Exclude<TradeResult, 'refused' | 'queued' | 'placed'>, readonly string[]> = {
  filled: ['filled'],
  rejected: ['rejected', 'failed'],
  unknown: ['unknown'],
  draft: ['draft'],
};
const NOT_PLACED = Object.values(STATUSES_OF).flat();

/**
 * Results a trader's history holds few of, and looks for: their signals are found by a partial
 * index (signals_user_errors_idx, signals_unfinished_idx, whose predicates these imply; written
 * as constants so that a generic plan can use them), then their entries by actions_signal_idx.
 * Walking the activity for them would read all of it when there are none. Only a live signal is
 * ever rejected or failed (a test one stays 'draft').
 */
const statusIn = (result: keyof typeof STATUSES_OF) =>
  sql.raw(`s.status in (${STATUSES_OF[result].map((status) => `'${status}'`).join(', ')})`);
const RARE_SIGNALS: Partial<Record<TradeResult, SQL>> = {
  rejected: sql`not s.is_test and ${statusIn('rejected')}`,
  unknown: statusIn('unknown'),
};

function resultCondition(userId: number, result: TradeResult): SQL {
  if (result === 'refused') return REFUSED_CALL;
  if (result === 'queued') return QUEUED_CALL;
  if (result === 'placed') return sql`${SIGNAL_STATUS} <> all(${sql.param(NOT_PLACED)}::text[])`;
  const rare = RARE_SIGNALS[result];
  if (rare) {
    return sql`a.metadata ? 'signalId' and a.metadata ->> 'signalId' in (
      select s.id from signals s where s.user_id = ${userId} and ${rare})`;
  }
  return sql`${SIGNAL_STATUS} = any(${sql.param(STATUSES_OF[result])}::text[])`;
}

/**
 * A repeat's entry (modules/signals/submit.ts) keeps its own request beside the first signal's id;
 * the first's entry reads its request from the signal.
 */
const REPEAT = sql`(a.code = 'Order' and a.metadata ? 'signalId' and a.metadata ? 'request')`;

/** A queued call's queued signal as it is now: its answer named it (queue.ts queuedAnswer). */
const QUEUED_STATUS = sql`case when ${QUEUED_CALL} then (select q.status from queued_signals q
  where q.id = a.metadata -> 'response' ->> 'id' and q.user_id = a.user_id) end`;

const COLUMNS = sql`a.id::int as id, a.code, a.address,
  case when a.metadata ? 'signalId' and not a.metadata ? 'request'
    then a.metadata || jsonb_build_object('request', ${SIGNAL_REQUEST}) else a.metadata end as metadata,
  floor(extract(epoch from a.created_at) * 1000)::float8 as "createdAt",
  case when a.code = 'Order' and a.metadata ? 'signalId' then ${SIGNAL_FACTS} end as signal,
  ${REPEAT} as repeat, ${QUEUED_STATUS} as "queuedStatus"`;

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function conditions(filter: ActionFilter): SQL {
  const parts: SQL[] = [sql`a.user_id = ${filter.userId}`];
  if (filter.code !== undefined) parts.push(sql`a.code = ${filter.code}`);
  if (filter.before !== undefined) parts.push(sql`a.created_at < to_timestamp(${filter.before}::float8 / 1000)`);
  if (filter.since !== undefined) parts.push(sql`a.created_at >= to_timestamp(${filter.since}::float8 / 1000)`);
  if (filter.signalId !== undefined) {
    // With the predicate of actions_signal_idx, so the entries are found by it, not by a walk.
    parts.push(sql`a.metadata ? 'signalId' and a.metadata ->> 'signalId' = ${filter.signalId}`);
  }
  const trade = filter.result ?? filter.hookKey ?? filter.providerName ?? filter.symbols;
  if (trade !== undefined) parts.push(sql`a.code = 'Order'`);
  if (filter.result !== undefined) {
    parts.push(resultCondition(filter.userId, filter.result));
    // A repeat is no second order with that result: the first one's entry stands for it.
    parts.push(sql`not ${REPEAT}`);
  }
  if (filter.hookKey !== undefined) parts.push(sql`a.metadata -> 'hook' ->> 'key' = ${filter.hookKey}`);
  if (filter.providerName !== undefined) parts.push(sql`a.metadata ->> 'providerName' = ${filter.providerName}`);
  if (filter.symbols !== undefined) {
    const symbol = sql`btrim(coalesce(${SIGNAL_SYMBOL}, ${REQUEST} ->> 'symbol'))`;
    // As writtenSymbol: NASDAQ:AAPL is AAPL.
    const written = sql`upper(btrim(regexp_replace(${symbol}, '^[A-Za-z0-9_]{1,20}:', '')))`;
    parts.push(sql`${written} = any(${sql.param(filter.symbols)}::text[])`);
  }
  if (filter.search !== undefined) {
    const pattern = `%${escapeLike(filter.search)}%`;
    const metadata = filter.withoutShortKeys ? WITHOUT_SHORT_KEYS_SQL : 'a.metadata';
    const description = sql.raw(describeActionSql('a.code', metadata, filter.titles));
    parts.push(sql`((${REQUEST} #>> '{}') ilike ${pattern} or ${description} ilike ${pattern})`);
  }
  return sql.join(parts, sql` and `);
}

/**
 * Newest first. A page never splits a millisecond: it holds the first `limit` matches plus every
 * further match created in the same millisecond as the last of them, so paging with
 * `before` = the last row's createdAt neither skips nor repeats rows that share a millisecond.
 */
export async function listActions(db: Executor, filter: ActionFilter): Promise<ActionRow[]> {
  const where = conditions(filter);
  const { rows } = await db.execute<ActionRow & Record<string, unknown>>(sql`
    select ${COLUMNS} from actions a
    where ${where} and a.created_at >= (
      select date_trunc('milliseconds', min(p.created_at)) from (
        select a.created_at from actions a where ${where} order by a.created_at desc limit ${filter.limit}
      ) p
    )
    order by a.created_at desc, a.id desc
    limit ${MAX_PAGE}`);
  return rows;
}

export async function findAction(db: Executor, userId: number, id: number): Promise<ActionRow | undefined> {
  const { rows } = await db.execute<ActionRow & Record<string, unknown>>(
    sql`select ${COLUMNS} from actions a where a.id = ${id} and a.user_id = ${userId}`,
  );
  return rows[0];
}
