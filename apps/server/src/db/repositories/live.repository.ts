// What live updates read and listen to (issue #21): the owners of changed hooks, and the channel
// the actions table's trigger notifies (migration 0017).
import { sql } from 'drizzle-orm';
import type { Executor } from './executor.ts';

/** Payload: the user ids whose activity grew, comma-separated; empty means anyone's. */
export const ACTIVITY_ADDED_CHANNEL = 'activity_added';

/**
 * A SELECT telling the users of `rows` (a CTE with user_id) that their activity changed, as the
 * actions trigger does (migration 0017): a signal's outcome changes its entry's trade line, the
 * chart and the balance without a new entry. Referenced by the statement so that it runs; `where`
 * (SQL) narrows the rows told of.
 */
export const activityChangedSql = (rows: string, where = 'true') =>
  `select pg_notify('${ACTIVITY_ADDED_CHANNEL}', case when length(ids) > 7900 then '' else ids end)
    from (select string_agg(distinct user_id::text, ',') as ids from ${rows} where ${where}) s where ids is not null`;

/**
 * Tells `userId`'s screens that their activity changed without a new entry: a credit grant (an
 * administrator's reward, a purchase, a plan period) changes the balance the tiles and the credits
 * banner show. Sent with the transaction's commit, as every NOTIFY.
 */
export async function tellActivityChanged(db: Executor, userId: number): Promise<void> {
  await db.execute(sql`select pg_notify(${ACTIVITY_ADDED_CHANNEL}, ${String(userId)})`);
}

export async function hookOwners(db: Executor, shortKeys: readonly string[]): Promise<number[]> {
  const { rows } = await db.execute<{ user_id: string }>(
    sql`select distinct user_id from hooks where short_key = any(${sql.param([...shortKeys])}::text[])`,
  );
  return rows.map((row) => Number(row.user_id));
}
