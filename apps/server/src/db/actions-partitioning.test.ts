// Migration 0006 on a database holding activity: the rows survive with their ids, each in its
// month's partition; new rows continue the ids; deleting a user still removes its entries.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { migrationsBefore } from '../../test/migrations-before.ts';
import { withDatabase } from '../../test/postgres.ts';
import { runMigrations } from './migrate.ts';

const name = `partitioning_${randomBytes(4).toString('hex')}`;
let before: string;
let pool: pg.Pool;

beforeAll(async () => {
  const admin = new pg.Client({ connectionString: inject('postgresUrl') });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  pool = new pg.Pool({ connectionString: withDatabase(inject('postgresUrl'), name), max: 2 });
});
afterAll(async () => {
  await pool?.end();
  const admin = new pg.Client({ connectionString: inject('postgresUrl') });
  await admin.connect();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.end();
  if (before) fs.rmSync(before, { recursive: true, force: true });
});

describe('migration 0006: actions partitioned by month', () => {
  it('keeps every entry, in its month, and the ids go on', async () => {
    before = migrationsBefore('0006_actions_partitioned_by_month');
    await runMigrations(pool, before);
    const { rows: users } = await pool.query<{ id: string }>(
      `insert into users (key, email, "group") values ('u1', 'one@example.com', 4), ('u2', 'two@example.com', 4) returning id`,
    );
    const [one, two] = users.map((u) => Number(u.id));
    await pool.query(
      `insert into actions (user_id, code, metadata, created_at) values
        ($1, 'Signin', '{"a":1}', '2024-01-31T23:59:59Z'),
        ($1, 'Order', '{}', '2024-02-01T00:00:00Z'),
        ($2, 'Signin', '{}', now())`,
      [one, two],
    );
    const old = await pool.query('select id, user_id, code, metadata, created_at from actions order by id');

    await runMigrations(pool);
    const kept = await pool.query('select id, user_id, code, metadata, created_at from actions order by id');
    expect(kept.rows).toEqual(old.rows);
    const { rows: parts } = await pool.query<{ code: string; part: string }>(
      'select code, tableoid::regclass::text as part from actions order by id',
    );
    expect(parts.slice(0, 2)).toEqual([
      { code: 'Signin', part: 'actions_2024_01' },
      { code: 'Order', part: 'actions_2024_02' },
    ]);
    expect(parts[2]?.part).toMatch(/^actions_\d{4}_\d{2}$/);
    const { rows: kind } = await pool.query<{ relkind: string }>(
      `select relkind from pg_class where relname = 'actions'`,
    );
    expect(kind[0]?.relkind).toBe('p');

    const { rows: added } = await pool.query<{ id: string }>(
      `insert into actions (user_id, code) values ($1, 'Signout') returning id`,
      [one],
    );
    expect(Number(added[0]?.id)).toBeGreaterThan(Math.max(...old.rows.map((r) => Number(r.id))));
    await pool.query('delete from users where id = $1', [one]);
    const { rows: left } = await pool.query<{ n: number }>('select count(*)::int as n from actions');
    expect(left[0]?.n).toBe(1);
  });
});
