// credits.low and credits.exhausted from the credits module (spends, a plan period ending):
// written in the transaction that changes the balance, by the web app's low-credit rule (at most
// 20 % of the last grant), for users with a setting only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticateAsUserId, startTestApp, type TestApp } from '../../../test/app.ts';
import { inTransaction } from '../../../test/credit-fixtures.ts';
import { createSetting } from '../../../test/notification-fixtures.ts';
import { setupTrader } from '../../../test/signal-fixtures.ts';
import { lastGrant } from '../../db/repositories/credits.repository.ts';
import { endCreditPeriod, grantCredits, refundCredits, spendCredits, startCreditPeriod } from './credits.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ authenticate: authenticateAsUserId });
});
afterAll(() => t.close());

async function eventsOf(userId: number) {
  const { rows } = await t.services.db.$client.query<{ type: string; data: unknown }>(
    'select type, data from notification_events where user_id = $1 order by created_at, id',
    [userId],
  );
  return rows;
}

async function trader(email: string) {
  const made = await setupTrader(t, email, { credits: 0 });
  await createSetting(t, made.headers, made.connector.key, made.accountId, 2, { email });
  return made.userId;
}

describe('credit events', () => {
  it('tells the low mark once when crossed, and the balance reaching 0', async () => {
    const userId = await trader('credits@example.com');
    await inTransaction(t, (tx) => grantCredits(tx, userId, 10, 'purchase', 'cs_1'));
    await inTransaction(t, (tx) => spendCredits(tx, userId, 7, 'r1'));
    expect(await eventsOf(userId)).toEqual([]);
    await inTransaction(t, (tx) => spendCredits(tx, userId, 1, 'r2'));
    expect(await eventsOf(userId)).toEqual([{ type: 'credits.low', data: { balance: 2, threshold: 2 } }]);
    await inTransaction(t, (tx) => spendCredits(tx, userId, 1, 'r3'));
    expect(await eventsOf(userId)).toHaveLength(1);
    // A rolled-back spend tells nothing.
    await inTransaction(t, async (tx) => {
      await spendCredits(tx, userId, 1, 'r4');
      throw new Error('rolled back');
    }).catch(() => undefined);
    expect(await eventsOf(userId)).toHaveLength(1);
    await inTransaction(t, (tx) => spendCredits(tx, userId, 1, 'r5'));
    expect((await eventsOf(userId)).at(-1)).toEqual({ type: 'credits.exhausted', data: { balance: 0, threshold: 2 } });
  });

  it("measures low against a plan period's credits, and tells a lapse to 0", async () => {
    const userId = await trader('plan@example.com');
    const periodEnd = new Date(Date.now() + 86_400_000);
    await inTransaction(t, (tx) => startCreditPeriod(tx, userId, { credits: 100, periodEnd, reference: 'in_1' }));
    await inTransaction(t, (tx) => spendCredits(tx, userId, 79, 's1'));
    expect(await eventsOf(userId)).toEqual([]);
    await inTransaction(t, (tx) => spendCredits(tx, userId, 1, 's2'));
    expect(await eventsOf(userId)).toEqual([{ type: 'credits.low', data: { balance: 20, threshold: 20 } }]);
    // The plan ended: no grant is left to measure a low mark against.
    await inTransaction(t, (tx) => endCreditPeriod(tx, userId, 'sub_end'));
    expect((await eventsOf(userId)).at(-1)).toEqual({
      type: 'credits.exhausted',
      data: { balance: 0, threshold: 0 },
    });
  });
});

describe('credit events after a plan ended', () => {
  it('measures the low mark against the last grant of another kind, not the plan’s last period', async () => {
    const userId = await trader('plan-ended@example.com');
    const periodEnd = new Date(Date.now() + 86_400_000);
    await inTransaction(t, (tx) => grantCredits(tx, userId, 50, 'purchase', 'cs_before_plan'));
    await inTransaction(t, (tx) => startCreditPeriod(tx, userId, { credits: 300, periodEnd, reference: 'in_ended' }));
    expect(await lastGrant(t.services.db, userId)).toBe(300);
    // The plan ends: its 300 lapse; the 50 bought are all there is, and all of them are left.
    await inTransaction(t, (tx) => endCreditPeriod(tx, userId, 'sub_ended'));
    expect(await lastGrant(t.services.db, userId)).toBe(50);
    expect(await eventsOf(userId)).toEqual([]);
    await inTransaction(t, (tx) => spendCredits(tx, userId, 40, 'after-end'));
    expect(await eventsOf(userId)).toEqual([{ type: 'credits.low', data: { balance: 10, threshold: 10 } }]);
  });

  it('has no low mark when the plan gave all the credits there were', async () => {
    const userId = await trader('plan-only@example.com');
    const periodEnd = new Date(Date.now() + 86_400_000);
    await inTransaction(t, (tx) => startCreditPeriod(tx, userId, { credits: 100, periodEnd, reference: 'in_only' }));
    await inTransaction(t, (tx) => endCreditPeriod(tx, userId, 'sub_only'));
    expect(await lastGrant(t.services.db, userId)).toBeNull();
  });
});

describe('credit events of a new plan period', () => {
  it('measures the low mark against the new period, not the one it replaces (a smaller plan renewed)', async () => {
    const userId = await trader('renewal@example.com');
    const day = 86_400_000;
    await inTransaction(t, (tx) =>
      startCreditPeriod(tx, userId, { credits: 500, periodEnd: new Date(Date.now() + day), reference: 'in_big' }),
    );
    await inTransaction(t, (tx) => spendCredits(tx, userId, 100, 'big-spend'));
    // Renewed on a smaller plan: 400 left lapse, 50 granted: 50 of 50 is not low.
    await inTransaction(t, (tx) =>
      startCreditPeriod(tx, userId, { credits: 50, periodEnd: new Date(Date.now() + 31 * day), reference: 'in_small' }),
    );
    expect(await eventsOf(userId)).toEqual([]);
    // Measured against the new grant: 10 is its low mark.
    await inTransaction(t, (tx) => spendCredits(tx, userId, 40, 'small-spend'));
    expect(await eventsOf(userId)).toEqual([{ type: 'credits.low', data: { balance: 10, threshold: 10 } }]);
  });
});

describe('credit events of a plan changed within its period', () => {
  it('measures the low mark against the new plan’s credits per period, not the difference the change added', async () => {
    const userId = await trader('upgrade@example.com');
    const periodEnd = new Date(Date.now() + 86_400_000);
    await inTransaction(t, (tx) => startCreditPeriod(tx, userId, { credits: 100, periodEnd, reference: 'in_up_1' }));
    await inTransaction(t, (tx) => spendCredits(tx, userId, 50, 'up-spend-1'));
    // Upgraded to 300 a period: 200 more, 250 left; its low mark is 60, as a fresh 300 period's.
    await inTransaction(t, (tx) =>
      startCreditPeriod(tx, userId, { credits: 300, periodEnd, reference: 'in_up_2', change: true }),
    );
    expect(await lastGrant(t.services.db, userId)).toBe(300);
    await inTransaction(t, (tx) => spendCredits(tx, userId, 190, 'up-spend-2'));
    expect(await eventsOf(userId)).toEqual([{ type: 'credits.low', data: { balance: 60, threshold: 60 } }]);
    // Down to 150 a period: nothing granted, 150 fewer left (0); measured against 150 from now on.
    await inTransaction(t, (tx) =>
      startCreditPeriod(tx, userId, { credits: 150, periodEnd, reference: 'in_up_3', change: true }),
    );
    expect(await lastGrant(t.services.db, userId)).toBe(150);
  });
});

describe('credit events around refunds', () => {
  it('tells low and exhausted once per grant, not again when a refunded signal crosses back', async () => {
    const userId = await trader('refunds@example.com');
    const types = async () => (await eventsOf(userId)).map((e) => e.type);
    await inTransaction(t, (tx) => grantCredits(tx, userId, 10, 'purchase', 'cs_refunds_1'));
    await inTransaction(t, (tx) => spendCredits(tx, userId, 7, 'x1'));
    await inTransaction(t, (tx) => spendCredits(tx, userId, 1, 'x2'));
    expect(await types()).toEqual(['credits.low']);
    // The order of x2 was rejected: its credit comes back (3), and the next signal takes it (2).
    await inTransaction(t, (tx) => refundCredits(tx, userId, 'x2'));
    await inTransaction(t, (tx) => spendCredits(tx, userId, 1, 'x3'));
    expect(await types()).toEqual(['credits.low']);
    await inTransaction(t, (tx) => spendCredits(tx, userId, 2, 'x4'));
    expect(await types()).toEqual(['credits.low', 'credits.exhausted']);
    await inTransaction(t, (tx) => refundCredits(tx, userId, 'x4'));
    await inTransaction(t, (tx) => spendCredits(tx, userId, 2, 'x5'));
    expect(await types()).toEqual(['credits.low', 'credits.exhausted']);
    // A new grant starts over: its crossings are told again.
    await inTransaction(t, (tx) => grantCredits(tx, userId, 10, 'purchase', 'cs_refunds_2'));
    await inTransaction(t, (tx) => spendCredits(tx, userId, 8, 'x6'));
    await inTransaction(t, (tx) => spendCredits(tx, userId, 2, 'x7'));
    expect(await types()).toEqual(['credits.low', 'credits.exhausted', 'credits.low', 'credits.exhausted']);
  });
});
