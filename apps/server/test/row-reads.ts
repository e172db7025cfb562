// What one call read of a table, from PostgreSQL's own counts: index entries returned by every
// index of the table plus the rows its sequential scans returned (a partitioned table's: those of
// every partition). The counts not yet reported include earlier transactions of the connection,
// so a call is measured by a difference.
import { sql } from 'drizzle-orm';
import type { Database } from '../src/db/client.ts';
import type { Transaction } from '../src/db/repositories/executor.ts';

async function reads(tx: Transaction, table: string): Promise<number> {
  const { rows } = await tx.execute<{ read: string }>(sql`
    with parts as (select relid from pg_partition_tree(${table}::regclass))
    select (select coalesce(sum(pg_stat_get_xact_tuples_returned(i.indexrelid)), 0)
        from pg_index i join parts p on p.relid = i.indrelid)
      + (select sum(pg_stat_get_xact_tuples_returned(p.relid)) from parts p) as read`);
  return Number(rows[0]?.read);
}

/** What `call` returned and how many rows of `table` it read, in a transaction of its own. */
export function measureReads<T>(
  db: Database,
  table: string,
  call: (tx: Transaction) => Promise<T>,
): Promise<{ value: T; read: number }> {
  return db.transaction(async (tx) => {
    const before = await reads(tx, table);
    const value = await call(tx);
    return { value, read: (await reads(tx, table)) - before };
  });
}
