// Reading the activity log (SPEC §3 Action, §7 actions/action), always scoped to one user.
import { type SQL, sql } from 'drizzle-orm';
import { describeActionSql } from './action-description.sql.ts';
import type { Executor } from './executor.ts';

export interface ActionRow {
  id: number;
  code: string;
  address: string | null;
  metadata: unknown;
  /** Milliseconds since the epoch, truncated (the stored time has microseconds). */
  createdAt: number;
}

export interface ActionFilter {
  userId: number;
  code?: string;
  /** Only actions created strictly before this millisecond. */
  before?: number;
  /** Case-insensitive substring of the request text or the description. */
  search?: string;
  /** Only the entries of this signal (a notification's link). */
  signalId?: string;
  limit: number;
}

/** Safety bound on a page grown by millisecond ties (see listActions). */
const MAX_PAGE = 1000;

/** An Order entry of a stored signal keeps no request: it is read from the signal's row. */
const SIGNAL_REQUEST = sql`(select s.request from signals s
  where s.id = a.metadata ->> 'signalId' and s.user_id = a.user_id)`;
const REQUEST = sql`coalesce(a.metadata -> 'request', ${SIGNAL_REQUEST})`;

const COLUMNS = sql`a.id::int as id, a.code, a.address,
  case when a.metadata ? 'signalId' and not a.metadata ? 'request'
    then a.metadata || jsonb_build_object('request', ${SIGNAL_REQUEST}) else a.metadata end as metadata,
  floor(extract(epoch from a.created_at) * 1000)::float8 as "createdAt"`;

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function conditions(filter: ActionFilter): SQL {
  const parts: SQL[] = [sql`a.user_id = ${filter.userId}`];
  if (filter.code !== undefined) parts.push(sql`a.code = ${filter.code}`);
  if (filter.signalId !== undefined) parts.push(sql`a.metadata ->> 'signalId' = ${filter.signalId}`);
  if (filter.before !== undefined) parts.push(sql`a.created_at < to_timestamp(${filter.before}::float8 / 1000)`);
  if (filter.search !== undefined) {
    const pattern = `%${escapeLike(filter.search)}%`;
    const description = sql.raw(describeActionSql('a.code', 'a.metadata'));
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
