import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertTestUser, startTestApp, type TestApp } from '../../../test/app.ts';
import { accountOf, expectBalancedLedger, inTransaction, ledgerOf } from '../../../test/credit-fixtures.ts';
import { isAppError } from '../../errors.ts';
import {
  changeRecordedPeriod,
  endCreditPeriod,
  grantCredits,
  refundCredits,
  restoreReversal,
  reverseCredits,
  spendCredits,
  startCreditPeriod,
} from './credits.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

let serial = 0;
const newUser = async () => (await insertTestUser(t.services, `credits-${++serial}@example.com`)).id;
const day = (n: number) => new Date(Date.UTC(2030, 0, n));

describe('credits', () => {
  it('grants one-time credits once per reference, creating the account when missing', async () => {
    const userId = await newUser();
    const first = await inTransaction(t, (tx) => grantCredits(tx, userId, 10, 'purchase', 'cs_test_1'));
    expect(first).toMatchObject({ userId, credits: 10, recurring: 0, cause: 'purchase', balanceAfter: 10 });
    expect(await inTransaction(t, (tx) => grantCredits(tx, userId, 10, 'purchase', 'cs_test_1'))).toBeNull();
    await inTransaction(t, (tx) => grantCredits(tx, userId, 25, 'reward'));
    expect(await accountOf(t, userId)).toMatchObject({ balance: 35, credits: 35, recurring_credits: 0 });
    expect((await accountOf(t, userId))?.metadata).toMatchObject({ creditsTotal: 35 });
    expect(await expectBalancedLedger(t, userId)).toHaveLength(2);
  });

  it("gives a failed refund's reversal back once, as a restore, also after one written as a purchase before 0028", async () => {
    const userId = await newUser();
    await inTransaction(t, (tx) => grantCredits(tx, userId, 100, 'purchase', 'cs_restore'));
    await inTransaction(t, (tx) => reverseCredits(tx, userId, 40, 'cs_restore:re_1'));
    const back = await inTransaction(t, (tx) => restoreReversal(tx, userId, 'cs_restore:re_1'));
    expect(back).toMatchObject({ cause: 'restore', credits: 40, balanceAfter: 100 });
    expect(await inTransaction(t, (tx) => restoreReversal(tx, userId, 'cs_restore:re_1'))).toBeNull();
    // A give-back of the code before the restore cause: a 'purchase' row with the reversal's reference.
    await inTransaction(t, (tx) => reverseCredits(tx, userId, 10, 'cs_restore:re_2'));
    await inTransaction(t, (tx) => grantCredits(tx, userId, 10, 'purchase', 'cs_restore:re_2'));
    expect(await inTransaction(t, (tx) => restoreReversal(tx, userId, 'cs_restore:re_2'))).toBeNull();
    expect((await accountOf(t, userId))?.balance).toBe(100);
    await expectBalancedLedger(t, userId);
  });

  it('records a grant once when the same reference arrives concurrently', async () => {
    const userId = await newUser();
    const results = await Promise.all(
      Array.from({ length: 8 }, () => inTransaction(t, (tx) => grantCredits(tx, userId, 7, 'referral', 'ref:42'))),
    );
    expect(results.filter((r) => r !== null)).toHaveLength(1);
    expect((await accountOf(t, userId))?.balance).toBe(7);
    await expectBalancedLedger(t, userId);
  });

  it('starts plan periods: unused period credits lapse, older or repeated periods change nothing', async () => {
    const userId = await newUser();
    await inTransaction(t, (tx) => grantCredits(tx, userId, 3, 'signup'));
    const start = (credits: number, end: Date, reference: string) =>
      inTransaction(t, (tx) => startCreditPeriod(tx, userId, { credits, periodEnd: end, reference }));
    expect(await start(100, day(31), 'in_1')).toMatchObject([{ cause: 'period', credits: 100, balanceAfter: 103 }]);
    await inTransaction(t, (tx) => spendCredits(tx, userId, 30, 'sig-a'));
    const renewed = await start(100, day(62), 'in_2');
    expect(renewed).toMatchObject([
      { cause: 'lapse', credits: -70, recurring: -70, balanceAfter: 3 },
      { cause: 'period', credits: 100, recurring: 100, balanceAfter: 103 },
    ]);
    expect(await start(100, day(62), 'in_2')).toBeNull();
    expect(await start(100, day(31), 'in_late')).toBeNull();
    expect(await accountOf(t, userId)).toMatchObject({
      balance: 103,
      credits: 3,
      recurring_credits: 100,
      recurring_period_credits: 100,
      recurring_period_end: day(62),
    });

    const ended = await inTransaction(t, (tx) => endCreditPeriod(tx, userId, 'sub_1'));
    expect(ended).toMatchObject({ cause: 'lapse', credits: -100, balanceAfter: 3 });
    expect(await inTransaction(t, (tx) => endCreditPeriod(tx, userId, 'sub_1'))).toBeNull();
    expect(await accountOf(t, userId)).toMatchObject({
      balance: 3,
      recurring_credits: 0,
      recurring_period_credits: 0,
      recurring_period_end: day(62),
    });
    // A period older than the last one (a late event) is still refused after the plan ended.
    expect(await start(50, day(40), 'in_old')).toBeNull();
    expect((await accountOf(t, userId))?.metadata).toMatchObject({ creditsTotal: 203 });
    await expectBalancedLedger(t, userId);
  });

  it('spends period credits first, refuses what the balance cannot cover, refunds to the same pools once', async () => {
    const userId = await newUser();
    await inTransaction(t, async (tx) => {
      await grantCredits(tx, userId, 3, 'signup');
      await startCreditPeriod(tx, userId, { credits: 2, periodEnd: day(31), reference: 'in_spend' });
    });
    const spent = await inTransaction(t, (tx) => spendCredits(tx, userId, 4, 'sig-1'));
    expect(spent).toMatchObject({ ok: true, entry: { cause: 'signal', credits: -4, recurring: -2, balanceAfter: 1 } });
    expect(await accountOf(t, userId)).toMatchObject({ credits: 1, recurring_credits: 0, signals_spent: 4 });
    expect(await inTransaction(t, (tx) => spendCredits(tx, userId, 2, 'sig-2'))).toEqual({ ok: false });
    expect(await inTransaction(t, (tx) => spendCredits(tx, userId, 4, 'sig-1'))).toEqual({ ok: true, entry: null });

    const refund = await inTransaction(t, (tx) => refundCredits(tx, userId, 'sig-1'));
    expect(refund).toMatchObject({ cause: 'refund', credits: 4, recurring: 2, reference: 'sig-1', balanceAfter: 5 });
    expect(await inTransaction(t, (tx) => refundCredits(tx, userId, 'sig-1'))).toBeNull();
    expect(await inTransaction(t, (tx) => refundCredits(tx, userId, 'never-spent'))).toBeNull();
    expect(await accountOf(t, userId)).toMatchObject({ credits: 3, recurring_credits: 2, signals_spent: 0 });
    await expectBalancedLedger(t, userId);
  });

  it("gives a signal's period credit back only while its period runs: a renewed or ended plan lets it lapse", async () => {
    const userId = await newUser();
    await inTransaction(t, async (tx) => {
      await grantCredits(tx, userId, 2, 'signup');
      await startCreditPeriod(tx, userId, { credits: 3, periodEnd: day(31), reference: 'in_lapse_1' });
    });
    await inTransaction(t, (tx) => spendCredits(tx, userId, 1, 'sig-old-period'));
    await inTransaction(t, (tx) => spendCredits(tx, userId, 1, 'sig-same-period'));
    // Refunded within its period: back to the period's credits.
    expect(await inTransaction(t, (tx) => refundCredits(tx, userId, 'sig-same-period'))).toMatchObject({
      credits: 1,
      recurring: 1,
    });
    await inTransaction(t, (tx) =>
      startCreditPeriod(tx, userId, { credits: 3, periodEnd: day(62), reference: 'in_lapse_2' }),
    );
    // The renewed 3-credit period never holds 4: the old period's credit lapsed with it.
    const late = await inTransaction(t, (tx) => refundCredits(tx, userId, 'sig-old-period'));
    expect(late).toMatchObject({ cause: 'refund', credits: 0, recurring: 0 });
    expect(await inTransaction(t, (tx) => refundCredits(tx, userId, 'sig-old-period'))).toBeNull();
    expect(await accountOf(t, userId)).toMatchObject({
      balance: 5,
      credits: 2,
      recurring_credits: 3,
      signals_spent: 0,
    });

    // A plan that ended with its credits spent: the refund leaves no period credit behind.
    await inTransaction(t, (tx) => spendCredits(tx, userId, 4, 'sig-before-end'));
    await inTransaction(t, (tx) => endCreditPeriod(tx, userId, 'sub_lapse'));
    const afterEnd = await inTransaction(t, (tx) => refundCredits(tx, userId, 'sig-before-end'));
    expect(afterEnd).toMatchObject({ cause: 'refund', credits: 1, recurring: 0 });
    expect(await accountOf(t, userId)).toMatchObject({
      balance: 2,
      credits: 2,
      recurring_credits: 0,
      recurring_period_credits: 0,
    });
    await expectBalancedLedger(t, userId);
  });

  it("gives a signal's period credit back after its plan changed within the period: the period goes on", async () => {
    const userId = await newUser();
    await inTransaction(t, (tx) =>
      startCreditPeriod(tx, userId, { credits: 3, periodEnd: day(31), reference: 'in_change_1' }),
    );
    await inTransaction(t, (tx) => spendCredits(tx, userId, 1, 'sig-before-upgrade'));
    await inTransaction(t, (tx) => spendCredits(tx, userId, 1, 'sig-before-downgrade'));
    // Upgraded to 6 a period, invoiced at once: the same period, 3 more credits.
    await inTransaction(t, (tx) =>
      startCreditPeriod(tx, userId, { credits: 6, periodEnd: day(31), reference: 'in_change_2', change: true }),
    );
    expect(await accountOf(t, userId)).toMatchObject({ recurring_credits: 4, recurring_period_credits: 6 });
    expect(await inTransaction(t, (tx) => refundCredits(tx, userId, 'sig-before-upgrade'))).toMatchObject({
      credits: 1,
      recurring: 1,
      note: null,
    });
    // Down to 4, billed with the renewal: still the period it was spent in.
    await inTransaction(t, (tx) =>
      changeRecordedPeriod(tx, userId, { credits: 4, periodEnd: day(31), reference: 'sub_change:evt_1' }),
    );
    expect(await accountOf(t, userId)).toMatchObject({ recurring_credits: 3, recurring_period_credits: 4 });
    expect(await inTransaction(t, (tx) => refundCredits(tx, userId, 'sig-before-downgrade'))).toMatchObject({
      credits: 1,
      recurring: 1,
    });
    expect(await accountOf(t, userId)).toMatchObject({ balance: 4, recurring_credits: 4, signals_spent: 0 });
    await expectBalancedLedger(t, userId);
  });

  it("gives a signal's period credit back after a plan change written before changes carried their note", async () => {
    const userId = await newUser();
    await inTransaction(t, (tx) =>
      startCreditPeriod(tx, userId, { credits: 3, periodEnd: day(31), reference: 'in_legacy_1' }),
    );
    await inTransaction(t, (tx) => spendCredits(tx, userId, 1, 'sig-legacy-1'));
    await inTransaction(t, (tx) => spendCredits(tx, userId, 1, 'sig-legacy-2'));
    // The rows the code of 2026-11-27 02:25–18:11 wrote for a change, with no note (the ledger
    // takes no UPDATE, so they stay so), and the account as that code left it.
    const legacy = async (rows: Array<[number, string, string]>, recurring: number, periodCredits: number) => {
      for (const [credits, cause, reference] of rows) {
        await t.services.db.$client.query(
          `insert into credit_ledger (user_id, credits, recurring, cause, reference, balance_after)
           select user_id, $2, $2, $3, $4, credits + $5 from accounts where user_id = $1`,
          [userId, credits, cause, reference, recurring],
        );
      }
      await t.services.db.$client.query(
        'update accounts set recurring_credits = $2, recurring_period_credits = $3 where user_id = $1',
        [userId, recurring, periodCredits],
      );
    };
    // Down to 2 a period, invoiced at once: the credit left lapses, none added.
    await legacy(
      [
        [-1, 'lapse', 'in_legacy_2'],
        [0, 'period', 'in_legacy_2'],
      ],
      0,
      2,
    );
    expect(await inTransaction(t, (tx) => refundCredits(tx, userId, 'sig-legacy-1'))).toMatchObject({
      credits: 1,
      recurring: 1,
      note: null,
    });
    // Up to 3 again, billed with the renewal (customer.subscription.updated): one more.
    await legacy([[1, 'period', 'sub_legacy:evt_1']], 2, 3);
    expect(await inTransaction(t, (tx) => refundCredits(tx, userId, 'sig-legacy-2'))).toMatchObject({
      credits: 1,
      recurring: 1,
    });
    expect(await accountOf(t, userId)).toMatchObject({ balance: 3, recurring_credits: 3, signals_spent: 0 });
  });

  it('refunds only the owner of a spend', async () => {
    const [owner, other] = [await newUser(), await newUser()];
    await inTransaction(t, (tx) => grantCredits(tx, owner, 2, 'signup'));
    await inTransaction(t, (tx) => spendCredits(tx, owner, 1, 'sig-owned'));
    expect(await inTransaction(t, (tx) => refundCredits(tx, other, 'sig-owned'))).toBeNull();
    expect((await accountOf(t, other))?.balance).toBe(0);
  });

  it.each([0, 1.5, -3])('refuses %s credits', async (credits) => {
    const userId = await newUser();
    const error = await inTransaction(t, (tx) => grantCredits(tx, userId, credits, 'reward')).catch((e: unknown) => e);
    expect(isAppError(error) && error.code === 'VALIDATION' && error.field === 'credits').toBe(true);
  });

  it('refuses an unknown cause and an empty reference', async () => {
    const userId = await newUser();
    const unknown = await inTransaction(t, (tx) => grantCredits(tx, userId, 1, 'gift' as unknown as 'reward')).catch(
      (e: unknown) => e,
    );
    expect(isAppError(unknown) && unknown.field === 'cause').toBe(true);
    const empty = await inTransaction(t, (tx) => grantCredits(tx, userId, 1, 'reward', '')).catch((e: unknown) => e);
    expect(isAppError(empty) && empty.field === 'reference').toBe(true);
  });
});

describe('the database guards the books', () => {
  it('refuses UPDATE, DELETE and TRUNCATE of ledger rows; they go only with their user', async () => {
    const userId = await newUser();
    await inTransaction(t, (tx) => grantCredits(tx, userId, 5, 'signup'));
    const sql = t.services.db.$client;
    await expect(sql.query('update credit_ledger set credits = 500 where user_id = $1', [userId])).rejects.toThrow(
      /append-only/,
    );
    await expect(sql.query('delete from credit_ledger where user_id = $1', [userId])).rejects.toThrow(/append-only/);
    await expect(sql.query('truncate credit_ledger')).rejects.toThrow(/append-only/);
    expect(await ledgerOf(t, userId)).toHaveLength(1);
    await sql.query('delete from users where id = $1', [userId]);
    expect(await ledgerOf(t, userId)).toHaveLength(0);
  });

  it('keeps balance = credits + recurringCredits; a balance written alone is an adjustment in the ledger', async () => {
    const userId = await newUser();
    const sql = t.services.db.$client;
    // An account inserted with credits opens its ledger with them.
    await sql.query('insert into accounts (user_id, balance, credits) values ($1, 5, 5)', [userId]);
    await inTransaction(t, (tx) =>
      startCreditPeriod(tx, userId, { credits: 4, periodEnd: day(31), reference: 'in_adjust' }),
    );
    await sql.query('update accounts set balance = balance - 6 where user_id = $1', [userId]);
    expect(await accountOf(t, userId)).toMatchObject({ balance: 3, credits: 3, recurring_credits: 0 });
    await sql.query('update accounts set balance = 10 where user_id = $1', [userId]);
    expect(await accountOf(t, userId)).toMatchObject({ balance: 10, credits: 10, recurring_credits: 0 });
    // Credits written directly: balance follows them (no ledger row: use credits.ts).
    await sql.query('update accounts set credits = 4, balance = 99 where user_id = $1', [userId]);
    expect((await accountOf(t, userId))?.balance).toBe(4);
    await expect(sql.query('update accounts set credits = -1 where user_id = $1', [userId])).rejects.toThrow(
      /accounts_credits_check/,
    );
    const ledger = await ledgerOf(t, userId);
    expect(ledger.map((l) => [l.cause, l.credits, l.recurring])).toEqual([
      ['opening', 5, 0],
      ['period', 4, 4],
      ['adjustment', -6, -4],
      ['adjustment', 7, 0],
    ]);
  });
});
