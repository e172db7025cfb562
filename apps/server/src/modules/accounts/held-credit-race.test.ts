// A pack's refund claiming a live signal's credit (or a failed refund ending that claim) while the
// hook writes the signal's outcome on another connection: the outcome statement starts before the
// refund's transaction commits and waits for it. It must still see the claim as it stands after
// that commit (READ COMMITTED reads its other rows as of its start): each credit moves once.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { accountOf, expectBalancedLedger } from '../../../test/credit-fixtures.ts';
import { hookBooks, setupTrader } from '../../../test/signal-fixtures.ts';
import type { Transaction } from '../../db/repositories/executor.ts';
import { HeldSignalBusy } from '../../db/repositories/held-credits.repository.ts';
import { restoreReversal, reverseCredits } from './credits.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

/**
 * Runs `work` in a transaction held open after it until `outcome` (started then, on another
 * connection) waits for that transaction; then commits, and waits for `outcome`.
 */
async function whileHeldOpen(work: (tx: Transaction) => Promise<unknown>, outcome: () => Promise<unknown>) {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let pid = 0;
  const worked = new Promise<void>((ready, failed) => {
    t.services.db
      .transaction(async (tx) => {
        await work(tx);
        const { rows } = await tx.execute<{ pid: number }>(sql`select pg_backend_pid() as pid`);
        pid = Number(rows[0]?.pid);
        ready();
        await released;
      })
      .catch(failed);
  });
  await worked;
  const written = outcome();
  // Deterministic: the outcome statement has started and waits for the open transaction.
  await vi.waitFor(
    async () => {
      const { rows } = await t.services.db.$client.query<{ n: number }>(
        'select count(*)::int as n from pg_stat_activity where $1 = any(pg_blocking_pids(pid))',
        [pid],
      );
      expect(rows[0]?.n).toBe(1);
    },
    { timeout: 5_000, interval: 20 },
  );
  release();
  await written;
}

describe('a held credit’s outcome written while a refund of its pack commits', () => {
  it('keeps the credit the refund claimed: the failed order does not get it back', async () => {
    const trader = await setupTrader(t, 'claim-race@example.com', { credits: 2 });
    const { store, reject } = await hookBooks(t, trader);
    await store('claimRaceSignal00001');
    // The 2-credit pack refunded: 1 left in the account, the signal's credit claimed.
    await whileHeldOpen(
      (tx) => reverseCredits(tx, trader.userId, 2, 'cs_claim_race:re_1'),
      () => reject('claimRaceSignal00001'),
    );
    expect(await accountOf(t, trader.userId)).toMatchObject({ balance: 0, credits: 0, signals_spent: 0 });
    await expectBalancedLedger(t, trader.userId);
  });

  it('gives the credit back when the refund that claimed it fails meanwhile', async () => {
    const trader = await setupTrader(t, 'restore-race@example.com', { credits: 2 });
    const { store, reject } = await hookBooks(t, trader);
    await store('restoreRaceSignal001');
    await t.services.db.transaction((tx) => reverseCredits(tx, trader.userId, 2, 'cs_restore_race:re_1'));
    expect(await accountOf(t, trader.userId)).toMatchObject({ balance: 0 });
    // The refund failed (its claim ends) while the order's failure is being written.
    await whileHeldOpen(
      (tx) => restoreReversal(tx, trader.userId, 'cs_restore_race:re_1'),
      () => reject('restoreRaceSignal001'),
    );
    expect(await accountOf(t, trader.userId)).toMatchObject({ balance: 2, credits: 2, signals_spent: 0 });
    await expectBalancedLedger(t, trader.userId);
  });

  it('runs the failed refund again when the outcome holds the signal first (no deadlock, no credit passed by)', async () => {
    const trader = await setupTrader(t, 'restore-busy@example.com', { credits: 2 });
    const { store } = await hookBooks(t, trader);
    await store('restoreBusySignal001');
    await t.services.db.transaction((tx) => reverseCredits(tx, trader.userId, 2, 'cs_restore_busy:re_1'));
    const hook = await t.services.db.$client.connect();
    try {
      await hook.query('begin');
      await hook.query('select id from signals where id = $1 for update', ['restoreBusySignal001']);
      await expect(
        t.services.db.transaction((tx) => restoreReversal(tx, trader.userId, 'cs_restore_busy:re_1')),
      ).rejects.toBeInstanceOf(HeldSignalBusy);
      // The order failed, as the hook writes it (the claim still open: its credit withheld).
      await (await hookBooks(t, trader, hook)).reject('restoreBusySignal001');
      await hook.query('commit');
    } finally {
      hook.release();
    }
    expect(await accountOf(t, trader.userId)).toMatchObject({ balance: 0 });
    await t.services.db.transaction((tx) => restoreReversal(tx, trader.userId, 'cs_restore_busy:re_1'));
    expect(await accountOf(t, trader.userId)).toMatchObject({ balance: 2, credits: 2, signals_spent: 0 });
    await expectBalancedLedger(t, trader.userId);
  });
});
