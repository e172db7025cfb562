// The test server's embedded PostgreSQL, for what no screen does in a journey (granting the
// professional group, which is bought in the product).
import pg from 'pg';
import { inject } from 'vitest';
import { embeddedDatabaseUrl } from '../../apps/server/src/db/embedded-access.ts';

/** Adds the professional bit (16) to a user's group. */
export async function makeProfessional(email: string): Promise<void> {
  const client = new pg.Client({ connectionString: embeddedDatabaseUrl(inject('dataDir')) });
  await client.connect();
  try {
    await client.query('update users set "group" = "group" | 16 where lower(email) = lower($1)', [email]);
  } finally {
    await client.end();
  }
}
