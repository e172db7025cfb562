// Migration 0033 on claims open before it: a live signal whose one-time credit a pack's refund
// claims (a 'reversal' row of its claim slot without its 'restore' row) gets its row's mark, which
// the hook's outcome statement reads; one whose claims all ended, or that was never claimed, not.
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseBefore } from '../../test/migrations-before.ts';
import { runMigrations } from './migrate.ts';
import { claimNote } from './repositories/held-credits.repository.ts';

let database: Awaited<ReturnType<typeof databaseBefore>>;
let pool: pg.Pool;

beforeAll(async () => {
  database = await databaseBefore('migration', '0033_signal_credit_claimed');
  pool = database.pool;
});

afterAll(() => database.drop());

describe('migration 0033 (claims marked on their signals)', () => {
  it('marks the signals whose claim is open, and only those', async () => {
    const { rows } = await pool.query<{ id: string }>(
      `insert into users (key, email, "group") values ('u1', 'claims@example.com', 4) returning id`,
    );
    const userId = rows[0]?.id;
    const signals = ['openClaim', 'claimedAgain', 'claimEnded', 'neverClaimed'];
    await pool.query(
      `insert into signals (id, user_id, connector_id, account_id, provider_name, status, credit_held)
       select id, $1, 1, 'A1', 'paper', 'placing', true from unnest($2::text[]) as id`,
      [userId, signals],
    );
    const row = (cause: string, reference: string) => [cause, reference, claimNote('cs_1:re_1')];
    const ledger = [
      row('reversal', 'openClaim'),
      row('reversal', 'claimedAgain'),
      row('restore', 'claimedAgain'),
      row('reversal', 'claimedAgain:2'),
      row('reversal', 'claimEnded'),
      row('restore', 'claimEnded'),
      // The pack's own reversal row (its reference is no signal's).
      ['reversal', 'cs_1:re_1', null],
    ];
    for (const [cause, reference, note] of ledger) {
      await pool.query(
        `insert into credit_ledger (user_id, credits, recurring, cause, reference, balance_after, note)
         values ($1, 0, 0, $2, $3, 0, $4)`,
        [userId, cause, reference, note],
      );
    }

    await runMigrations(pool);

    const marked = await pool.query<{ id: string; credit_claimed: boolean }>(
      'select id, credit_claimed from signals order by id',
    );
    expect(Object.fromEntries(marked.rows.map((r) => [r.id, r.credit_claimed]))).toEqual({
      claimEnded: false,
      claimedAgain: true,
      neverClaimed: false,
      openClaim: true,
    });
  });
});
