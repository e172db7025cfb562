// What live updates read and listen to (issue #21): the owners of changed hooks, and the channel
// the actions table's trigger notifies (migration 0017).
import { sql } from 'drizzle-orm';
import type { Executor } from './executor.ts';

/** Payload: the user ids whose activity grew, comma-separated; empty means anyone's. */
export const ACTIVITY_ADDED_CHANNEL = 'activity_added';

export async function hookOwners(db: Executor, shortKeys: readonly string[]): Promise<number[]> {
  const { rows } = await db.execute<{ user_id: string }>(
    sql`select distinct user_id from hooks where short_key = any(${sql.param([...shortKeys])}::text[])`,
  );
  return rows.map((row) => Number(row.user_id));
}
