// The test server's embedded PostgreSQL, for what no screen does in a journey (granting the
// professional group, which is bought in the product). Its port is in postmaster.pid.
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';

function databaseUrl(): string {
  const pid = fs.readFileSync(path.join(inject('dataDir'), 'pg', 'postmaster.pid'), 'utf8').split('\n');
  return `postgres://router:router@127.0.0.1:${pid[3]?.trim()}/postgres`;
}

/** Adds the professional bit (16) to a user's group. */
export async function makeProfessional(email: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl() });
  await client.connect();
  try {
    await client.query('update users set "group" = "group" | 16 where lower(email) = lower($1)', [email]);
  } finally {
    await client.end();
  }
}
