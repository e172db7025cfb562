// Test databases: one PostgreSQL per run (embedded, or TEST_DATABASE_URL), a template database
// with the migrations applied once, and a fresh copy of it per test file.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { createDatabase, createPool, type Database, type SessionSettings } from '../src/db/client.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
    templateDatabase: string;
  }
}

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

export interface TestDatabase {
  url: string;
  pool: pg.Pool;
  db: Database;
  drop(): Promise<void>;
}

/** A new database cloned from the migrated template; drop it in afterAll. */
export async function createTestDatabase(session: SessionSettings = {}): Promise<TestDatabase> {
  const serverUrl = inject('postgresUrl');
  const template = inject('templateDatabase');
  const name = `test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
  } finally {
    await admin.end();
  }
  const url = withDatabase(serverUrl, name);
  const pool = createPool(url, 10, session);
  return {
    url,
    pool,
    db: createDatabase(pool),
    async drop() {
      await pool.end();
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}
