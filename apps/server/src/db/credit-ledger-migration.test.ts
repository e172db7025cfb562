// Migration 0005 on data written under the old model (`credits` = one-time credits granted so
// far, `balance` = signals left): credits become what is left, the ledger opens with each
// balance, and users without an account get one.
import fs from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { migrationsBefore } from '../../test/migrations-before.ts';
import { withDatabase } from '../../test/postgres.ts';
import { createPool } from './client.ts';
import { runMigrations } from './migrate.ts';

const BEFORE = '0005_credit_ledger';
const name = `migration_${process.pid}_${Date.now()}`;
let pool: pg.Pool;
let oldMigrations: string;

beforeAll(async () => {
  const admin = new pg.Client({ connectionString: inject('postgresUrl') });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  pool = createPool(withDatabase(inject('postgresUrl'), name), 2);
  oldMigrations = migrationsBefore(BEFORE);
  await runMigrations(pool, oldMigrations);
});

afterAll(async () => {
  await pool.end();
  fs.rmSync(oldMigrations, { recursive: true, force: true });
  const admin = new pg.Client({ connectionString: inject('postgresUrl') });
  await admin.connect();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.end();
});

async function user(email: string): Promise<number> {
  const { rows } = await pool.query<{ id: string }>(
    `insert into users (key, email, "group") values ($1, $1, 4) returning id`,
    [email],
  );
  return Number(rows[0]?.id);
}

describe('migration 0005 (credit ledger)', () => {
  it('turns the old columns into the new model and opens each ledger with the balance', async () => {
    const spender = await user('spender@example.com');
    const planned = await user('planned@example.com');
    const overdrawn = await user('overdrawn@example.com');
    const accountless = await user('accountless@example.com');
    // Old model: credits = granted so far; balance = left.
    await pool.query(`insert into accounts (user_id, balance, credits, metadata) values ($1, 3, 30, '{}')`, [spender]);
    await pool.query(
      `insert into accounts (user_id, balance, credits, recurring_credits, metadata)
       values ($1, 40, 5, 100, '{"creditsTotal": 105}')`,
      [planned],
    );
    await pool.query(`insert into accounts (user_id, balance, credits) values ($1, -2, 5)`, [overdrawn]);
    await pool.query(
      `insert into signals (id, user_id, connector_id, account_id, provider_name, status, credit_held)
       values ('s1', $1, 1, 'A', 'paper', 'filled', true), ('s2', $1, 1, 'A', 'paper', 'rejected', false)`,
      [spender],
    );

    await runMigrations(pool);

    const { rows: accounts } = await pool.query(
      `select user_id::int, balance, credits, recurring_credits, signals_spent, metadata->'creditsTotal' as total
       from accounts order by user_id`,
    );
    expect(accounts).toEqual([
      { user_id: spender, balance: 3, credits: 3, recurring_credits: 0, signals_spent: 1, total: 30 },
      { user_id: planned, balance: 40, credits: 0, recurring_credits: 40, signals_spent: 0, total: 105 },
      { user_id: overdrawn, balance: 0, credits: 0, recurring_credits: 0, signals_spent: 0, total: 5 },
      { user_id: accountless, balance: 5, credits: 5, recurring_credits: 0, signals_spent: 0, total: 5 },
    ]);
    const { rows: ledger } = await pool.query(
      `select user_id::int, credits, recurring, cause, balance_after from credit_ledger order by user_id`,
    );
    expect(ledger).toEqual([
      { user_id: spender, credits: 3, recurring: 0, cause: 'opening', balance_after: 3 },
      { user_id: planned, credits: 40, recurring: 40, cause: 'opening', balance_after: 40 },
      { user_id: accountless, credits: 5, recurring: 0, cause: 'opening', balance_after: 5 },
    ]);
  });
});
