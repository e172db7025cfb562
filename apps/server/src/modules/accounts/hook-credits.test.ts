// The hook's batched statements (signals.repository.ts) keep the same books as credits.ts: one
// 'signal' row per live signal, period credits first, a 'refund' row to the same pool when the
// order fails, and balance = the ledger's sum under a burst on one user.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { accountOf, expectBalancedLedger, inTransaction } from '../../../test/credit-fixtures.ts';
import {
  balanceOf,
  hookBooks as booksOf,
  eventually,
  type FlakyBroker,
  flakyBroker,
  postSignal,
  setupTrader,
  signalRows,
} from '../../../test/signal-fixtures.ts';
import { recordSignalOutcomes } from '../../db/repositories/signals.repository.ts';
import { endCreditPeriod, restoreReversal, reverseCredits, startCreditPeriod } from './credits.ts';

let t: TestApp;
let flaky: FlakyBroker;
beforeAll(async () => {
  flaky = flakyBroker();
  t = await startTestApp({ brokers: [flaky.broker] });
});
afterAll(() => t.close());

const NO_ANSWER = { brokerOrderId: null, price: null, response: null, elapsedMs: null };
const order = (n: number) => ({ symbol: 'AAPL', action: 'buy', quantity: n });
const periodEnd = new Date(Date.now() + 30 * 86_400_000);
const hookBooks = (trader: Awaited<ReturnType<typeof setupTrader>>) => booksOf(t, trader);

describe('credits on the hook path', () => {
  it('spends period credits first, one ledger row per signal naming it', async () => {
    const trader = await setupTrader(t, 'period-first@example.com', { credits: 5 });
    await inTransaction(t, (tx) =>
      startCreditPeriod(tx, trader.userId, { credits: 2, periodEnd, reference: 'in_hook_1' }),
    );
    for (let n = 1; n <= 3; n++) expect((await postSignal(t, trader.shortKey, order(n))).statusCode).toBe(201);
    expect(await accountOf(t, trader.userId)).toMatchObject({
      balance: 4,
      credits: 4,
      recurring_credits: 0,
      signals_spent: 3,
    });
    const ledger = await expectBalancedLedger(t, trader.userId);
    const spends = ledger.filter((l) => l.cause === 'signal');
    expect(spends.map((l) => [l.credits, l.recurring])).toEqual([
      [-1, -1],
      [-1, -1],
      [-1, 0],
    ]);
    const ids = (await signalRows(t, trader.userId)).map((s) => s.id).sort();
    expect(spends.map((l) => l.reference).sort()).toEqual(ids);
  });

  it('keeps balance = ledger sum under a burst on one user, refusing what the credits do not cover', async () => {
    const trader = await setupTrader(t, 'burst-credits@example.com', { credits: 20 });
    await inTransaction(t, (tx) =>
      startCreditPeriod(tx, trader.userId, { credits: 10, periodEnd, reference: 'in_hook_burst' }),
    );
    const answers = await Promise.all(
      Array.from({ length: 45 }, (_, i) => postSignal(t, trader.shortKey, order(i + 1))),
    );
    const placed = answers.filter((a) => a.statusCode === 201);
    const refused = answers.filter((a) => a.statusCode === 400);
    expect(placed).toHaveLength(30);
    expect(refused).toHaveLength(15);
    for (const a of refused) expect(a.json().message).toMatch(/signals left/i);
    expect(await balanceOf(t, trader.userId)).toBe(0);
    const ledger = await expectBalancedLedger(t, trader.userId);
    const spends = ledger.filter((l) => l.cause === 'signal');
    expect(spends).toHaveLength(30);
    expect(spends.filter((l) => l.recurring === -1)).toHaveLength(10);
    // Period credits were taken before any one-time credit.
    expect(spends.findIndex((l) => l.recurring === 0)).toBe(10);
  });

  it('gives a refused order its credit back to the pool it came from, with a refund row', async () => {
    const trader = await setupTrader(t, 'refund-pool@example.com', { credits: 1, provider: 'flaky' });
    await inTransaction(t, (tx) =>
      startCreditPeriod(tx, trader.userId, { credits: 1, periodEnd, reference: 'in_hook_refund' }),
    );
    flaky.mode = 'refuse';
    try {
      expect((await postSignal(t, trader.shortKey, order(1))).statusCode).toBe(400);
      await eventually(async () => (await accountOf(t, trader.userId))?.recurring_credits === 1);
    } finally {
      flaky.mode = 'fill';
    }
    expect(await accountOf(t, trader.userId)).toMatchObject({ balance: 2, credits: 1, signals_spent: 0 });
    const [signal] = await signalRows(t, trader.userId);
    const ledger = await expectBalancedLedger(t, trader.userId);
    expect(ledger.slice(-2)).toMatchObject([
      { cause: 'signal', credits: -1, recurring: -1, reference: signal?.id },
      { cause: 'refund', credits: 1, recurring: 1, reference: signal?.id, balance_after: 2 },
    ]);
  });

  it('lets a refunded credit lapse when its plan period ended meanwhile (renewed or plan ended)', async () => {
    const trader = await setupTrader(t, 'refund-lapsed@example.com', { credits: 1 });
    const { store, reject } = await hookBooks(trader);
    await inTransaction(t, (tx) =>
      startCreditPeriod(tx, trader.userId, { credits: 2, periodEnd, reference: 'in_lapsed_1' }),
    );
    await store('lapsedRefundSignal01');
    await store('lapsedRefundSignal02');
    await inTransaction(t, (tx) =>
      startCreditPeriod(tx, trader.userId, {
        credits: 2,
        periodEnd: new Date(periodEnd.getTime() + 30 * 86_400_000),
        reference: 'in_lapsed_2',
      }),
    );
    await reject('lapsedRefundSignal01', 'lapsedRefundSignal02');
    // The renewed 2-credit period holds 2, not 4.
    expect(await accountOf(t, trader.userId)).toMatchObject({
      balance: 3,
      credits: 1,
      recurring_credits: 2,
      signals_spent: 0,
    });
    // A plan ended with its credits spent: the refund leaves no period credit that never lapses.
    await store('lapsedRefundSignal03');
    await inTransaction(t, (tx) => endCreditPeriod(tx, trader.userId, 'sub_lapsed'));
    await reject('lapsedRefundSignal03');
    expect(await accountOf(t, trader.userId)).toMatchObject({ balance: 1, credits: 1, recurring_credits: 0 });
    const ledger = await expectBalancedLedger(t, trader.userId);
    expect(ledger.filter((l) => l.cause === 'refund').map((l) => [l.reference, l.credits, l.recurring])).toEqual([
      ['lapsedRefundSignal01', 0, 0],
      ['lapsedRefundSignal02', 0, 0],
      ['lapsedRefundSignal03', 0, 0],
    ]);
  });

  it('gives a rejected order its period credit back after its plan changed within the period: the period goes on', async () => {
    const trader = await setupTrader(t, 'refund-plan-changed@example.com', { credits: 1 });
    const { store, reject } = await hookBooks(trader);
    await inTransaction(t, (tx) =>
      startCreditPeriod(tx, trader.userId, { credits: 2, periodEnd, reference: 'in_changed_1' }),
    );
    await store('changedPlanSignal001');
    // Upgraded within the period (its invoice for the rest of it): 2 more credits, same period.
    await inTransaction(t, (tx) =>
      startCreditPeriod(tx, trader.userId, { credits: 4, periodEnd, reference: 'in_changed_2', change: true }),
    );
    await reject('changedPlanSignal001');
    expect(await accountOf(t, trader.userId)).toMatchObject({ balance: 5, credits: 1, recurring_credits: 4 });
    const ledger = await expectBalancedLedger(t, trader.userId);
    expect(ledger.filter((l) => l.cause === 'refund').map((l) => [l.credits, l.recurring])).toEqual([[1, 1]]);
  });

  it("keeps a held credit a pack's full refund took back when its order fails: taken once", async () => {
    const trader = await setupTrader(t, 'held-refunded@example.com', { credits: 2 });
    const { store, reject } = await hookBooks(trader);
    await store('heldRefundSignal0001');
    await store('heldRefundSignal0002');
    // The 2-credit pack is refunded in full while both signals hold its credits: none left to take.
    await inTransaction(t, (tx) => reverseCredits(tx, trader.userId, 2, 'cs_held:re_1'));
    await reject('heldRefundSignal0001', 'heldRefundSignal0002');
    expect(await accountOf(t, trader.userId)).toMatchObject({ balance: 0, credits: 0, signals_spent: 0 });
    const ledger = await expectBalancedLedger(t, trader.userId);
    expect(ledger.filter((l) => l.cause === 'refund').map((l) => [l.reference, l.credits])).toEqual([
      ['heldRefundSignal0001', 0],
      ['heldRefundSignal0002', 0],
    ]);
  });

  it('gives held credits back once the refund that claimed them fails, before or after their orders fail', async () => {
    const trader = await setupTrader(t, 'held-refund-failed@example.com', { credits: 3 });
    const { store, reject } = await hookBooks(trader);
    await store('heldFailedSignal0001');
    await store('heldFailedSignal0002');
    // 3 due, 1 left in the account, 2 held by the live signals.
    await inTransaction(t, (tx) => reverseCredits(tx, trader.userId, 3, 'cs_held_failed:re_1'));
    expect(await balanceOf(t, trader.userId)).toBe(0);
    await reject('heldFailedSignal0001');
    expect(await balanceOf(t, trader.userId)).toBe(0);
    // The refund failed: what it took comes back, the withheld credit too, the other claim ends.
    await inTransaction(t, (tx) => restoreReversal(tx, trader.userId, 'cs_held_failed:re_1'));
    expect(await balanceOf(t, trader.userId)).toBe(2);
    await reject('heldFailedSignal0002');
    expect(await accountOf(t, trader.userId)).toMatchObject({ balance: 3, credits: 3, signals_spent: 0 });
    expect(await inTransaction(t, (tx) => restoreReversal(tx, trader.userId, 'cs_held_failed:re_1'))).toBeNull();
    await expectBalancedLedger(t, trader.userId);
  });

  it('claims a held credit again for a later refund once the refund that claimed it failed', async () => {
    const trader = await setupTrader(t, 'held-claimed-again@example.com', { credits: 2 });
    const { store, reject } = await hookBooks(trader);
    await store('heldAgainSignal00001');
    // The 2-credit pack refunded: 1 left in the account, 1 held by the live signal (claimed).
    await inTransaction(t, (tx) => reverseCredits(tx, trader.userId, 2, 'cs_held_again:re_1'));
    // That refund failed: both back, the claim ended. The pack is refunded again, and succeeds.
    await inTransaction(t, (tx) => restoreReversal(tx, trader.userId, 'cs_held_again:re_1'));
    expect(await balanceOf(t, trader.userId)).toBe(1);
    await inTransaction(t, (tx) => reverseCredits(tx, trader.userId, 2, 'cs_held_again:re_2'));
    // The signal's order fails: its credit stays taken by the second refund (taken once).
    await reject('heldAgainSignal00001');
    expect(await accountOf(t, trader.userId)).toMatchObject({ balance: 0, credits: 0, signals_spent: 0 });
    // The second refund fails too: the pack's 2 credits stand again, the credit withheld included.
    await inTransaction(t, (tx) => restoreReversal(tx, trader.userId, 'cs_held_again:re_2'));
    expect(await accountOf(t, trader.userId)).toMatchObject({ balance: 2, credits: 2 });
    await expectBalancedLedger(t, trader.userId);
  });

  it('claims the credit of a signal still on its way to the broker, not of one placed already', async () => {
    const trader = await setupTrader(t, 'held-placed@example.com', { credits: 2 });
    const { store, reject } = await hookBooks(trader);
    await store('heldPlacedSignal0001');
    // Placed: its credit is spent for good (no outcome gives it back).
    await recordSignalOutcomes(t.services.db.$client, [
      { ...NO_ANSWER, id: 'heldPlacedSignal0001', from: 'placing', status: 'accepted', releaseCredit: false },
    ]);
    await store('heldPlacedSignal0002');
    // Half of the 2-credit pack refunded: none left in the account, the live signal's credit claimed.
    await inTransaction(t, (tx) => reverseCredits(tx, trader.userId, 1, 'cs_held_placed:re_1'));
    await reject('heldPlacedSignal0002');
    expect(await accountOf(t, trader.userId)).toMatchObject({ balance: 0, credits: 0, signals_spent: 1 });
    await expectBalancedLedger(t, trader.userId);
  });

  it('refunds a signal stored before the ledger (no spend row) with one one-time credit', async () => {
    const trader = await setupTrader(t, 'legacy-refund@example.com', { credits: 3, provider: 'flaky' });
    const pool = t.services.db.$client;
    const { rows } = await pool.query<{ id: string }>('select connector_id as id from hooks where id = $1', [
      trader.hook.id,
    ]);
    // As the store statement did before the ledger: the balance taken, the credit held.
    await pool.query(
      `with c as (update accounts set balance = balance - 1 where user_id = $2)
      insert into signals (id, user_id, hook_id, connector_id, account_id, provider_name, status, credit_held, created_at)
      values ($1, $2, $3, $4, 'F-1', 'flaky', 'placing', true, now() - interval '1 minute')`,
      ['legacyNeverSent00001', trader.userId, trader.hook.id, rows[0]?.id],
    );
    await t.app.signalRuntime.reconcile();
    expect(await balanceOf(t, trader.userId)).toBe(3);
    const ledger = await expectBalancedLedger(t, trader.userId);
    expect(ledger.at(-1)).toMatchObject({
      cause: 'refund',
      credits: 1,
      recurring: 0,
      reference: 'legacyNeverSent00001',
    });
  });
});

describe('SIGNAL_CREDITS=unlimited', () => {
  let u: TestApp;
  let unlimitedFlaky: FlakyBroker;
  beforeAll(async () => {
    unlimitedFlaky = flakyBroker();
    u = await startTestApp({ env: { SIGNAL_CREDITS: 'unlimited' }, brokers: [unlimitedFlaky.broker] });
  });
  afterAll(() => u.close());

  it('takes no credit, refuses no signal for credits, writes no spend or refund rows', async () => {
    const trader = await setupTrader(u, 'unlimited@example.com', { credits: 0 });
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => postSignal(u, trader.shortKey, order(i + 1))),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(12).fill(201));
    expect(await accountOf(u, trader.userId)).toMatchObject({ balance: 0, signals_spent: 0 });

    const flakyTrader = await setupTrader(u, 'unlimited-refused@example.com', { credits: 2, provider: 'flaky' });
    unlimitedFlaky.mode = 'refuse';
    try {
      expect((await postSignal(u, flakyTrader.shortKey, order(1))).statusCode).toBe(400);
      await eventually(async () => (await signalRows(u, flakyTrader.userId))[0]?.credit_held === false);
    } finally {
      unlimitedFlaky.mode = 'fill';
    }
    expect(await balanceOf(u, flakyTrader.userId)).toBe(2);
    for (const userId of [trader.userId, flakyTrader.userId]) {
      const ledger = await expectBalancedLedger(u, userId);
      expect(ledger.filter((l) => l.cause === 'signal' || l.cause === 'refund')).toEqual([]);
    }
  });
});
