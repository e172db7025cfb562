// The test server's embedded PostgreSQL, for what no screen does in a journey (granting the
// professional group, which is bought in the product; a second administrator, as ADMIN_EMAILS
// names one only).
import pg from 'pg';
import { inject } from 'vitest';
import { embeddedDatabaseUrl } from '../../apps/server/src/db/embedded-access.ts';

async function addGroup(email: string, bit: number): Promise<void> {
  const client = new pg.Client({ connectionString: embeddedDatabaseUrl(inject('dataDir')) });
  await client.connect();
  try {
    await client.query('update users set "group" = "group" | $2 where lower(email) = lower($1)', [email, bit]);
  } finally {
    await client.end();
  }
}

/** Adds the professional bit (16) to a user's group. */
export const makeProfessional = (email: string): Promise<void> => addGroup(email, 16);

/** Adds the administrator bit (1) to a user's group. */
export const makeAdministrator = (email: string): Promise<void> => addGroup(email, 1);
