// The connection pool and the Drizzle instance every repository uses.
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import * as schema from './schema/index.ts';

export type Database = NodePgDatabase<typeof schema> & { $client: pg.Pool };

export interface SessionSettings {
  /**
   * SIGNAL_CREDITS=unlimited: every connection carries `router.signal_credits = unlimited`, which
   * the credit statements read (UNMETERED_SQL in credits.repository.ts), the hook's batched
   * ones included.
   */
  unmeteredCredits?: boolean;
}

export function createPool(url: string, max = 20, session: SessionSettings = {}): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: 5_000,
    ...(session.unmeteredCredits ? { options: '-c router.signal_credits=unlimited' } : {}),
  });
  // An idle client losing its connection (database restart) must not crash the process.
  pool.on('error', () => {});
  // Nor a checked-out one (a transaction between statements, the reconciler, a LISTEN client):
  // without a listener its 'Connection terminated unexpectedly' is an uncaught 'error' event.
  // The client is then no longer queryable; its next query fails and the pool discards it.
  pool.on('connect', (client) => {
    client.on('error', () => {});
  });
  return pool;
}

export function createDatabase(pool: pg.Pool): Database {
  return drizzle(pool, { schema }) as Database;
}
