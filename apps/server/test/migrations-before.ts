// The committed migrations up to (not including) one of them, as a folder of their own: a test
// migrates a database that far, writes data of the old shape, then applies the rest.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { MIGRATIONS_DIR, runMigrations } from '../src/db/migrate.ts';
import { withDatabase } from './postgres.ts';

/** A temporary folder (remove it after the test) holding the migrations before `tag`. */
export function migrationsBefore(tag: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'migrations-'));
  fs.mkdirSync(path.join(dir, 'meta'));
  const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS_DIR, 'meta/_journal.json'), 'utf8')) as {
    entries: Array<{ tag: string }>;
  };
  const cut = journal.entries.findIndex((e) => e.tag === tag);
  if (cut < 0) throw new Error(`no migration ${tag}`);
  journal.entries = journal.entries.slice(0, cut);
  fs.writeFileSync(path.join(dir, 'meta/_journal.json'), JSON.stringify(journal));
  for (const entry of journal.entries)
    fs.copyFileSync(path.join(MIGRATIONS_DIR, `${entry.tag}.sql`), path.join(dir, `${entry.tag}.sql`));
  return dir;
}

/** A new empty database on the test PostgreSQL, for a migration test; `drop` removes it. */
export async function emptyDatabase(prefix: string): Promise<{ pool: pg.Pool; drop(): Promise<void> }> {
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: inject('postgresUrl') });
    await client.connect();
    await client.query(statement);
    await client.end();
  };
  await admin(`create database ${name}`);
  const pool = new pg.Pool({ connectionString: withDatabase(inject('postgresUrl'), name), max: 2 });
  // `drop … with (force)` ends connections a closing pool may still hold: expected, not a failure.
  pool.on('error', () => {});
  return {
    pool,
    async drop() {
      await pool.end();
      await admin(`drop database if exists ${name} with (force)`);
    },
  };
}

/**
 * A new database migrated up to (not including) the migration `tag`, for a test writing data of
 * the old shape before `runMigrations(pool)` applies the rest; `drop` removes it and the folder.
 */
export async function databaseBefore(prefix: string, tag: string): Promise<{ pool: pg.Pool; drop(): Promise<void> }> {
  const database = await emptyDatabase(prefix);
  const folder = migrationsBefore(tag);
  const drop = async () => {
    fs.rmSync(folder, { recursive: true, force: true });
    await database.drop();
  };
  try {
    await runMigrations(database.pool, folder);
  } catch (error) {
    await drop();
    throw error;
  }
  return { pool: database.pool, drop };
}
