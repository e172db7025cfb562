// credits.low and credits.exhausted from the credits module (spends, a plan period lapsing):
// written in the transaction that changes the balance, for users with a setting only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticateAsUserId, startTestApp, type TestApp } from '../../../test/app.ts';
import { inTransaction } from '../../../test/credit-fixtures.ts';
import { createSetting } from '../../../test/notification-fixtures.ts';
import { setupTrader } from '../../../test/signal-fixtures.ts';
import { endCreditPeriod, spendCredits, startCreditPeriod } from './credits.ts';

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

describe('credit events', () => {
  it('tells the low mark once when crossed, and the balance reaching 0', async () => {
    const trader = await setupTrader(t, 'credits@example.com', { credits: 5 });
    await createSetting(t, trader.headers, trader.connector.key, trader.accountId, 2, { email: 'c@example.com' });
    const { userId } = trader;
    await inTransaction(t, (tx) => spendCredits(tx, userId, 1, 'r1'));
    expect(await eventsOf(userId)).toEqual([]);
    await inTransaction(t, (tx) => spendCredits(tx, userId, 1, 'r2'));
    expect(await eventsOf(userId)).toEqual([{ type: 'credits.low', data: { balance: 3, threshold: 3 } }]);
    await inTransaction(t, (tx) => spendCredits(tx, userId, 1, 'r3'));
    expect(await eventsOf(userId)).toHaveLength(1);
    // A rolled-back spend tells nothing.
    await inTransaction(t, async (tx) => {
      await spendCredits(tx, userId, 2, 'r4');
      throw new Error('rolled back');
    }).catch(() => undefined);
    expect(await eventsOf(userId)).toHaveLength(1);
    await inTransaction(t, (tx) => spendCredits(tx, userId, 2, 'r5'));
    expect((await eventsOf(userId)).at(-1)).toEqual({
      type: 'credits.exhausted',
      data: { balance: 0, threshold: 3 },
    });
  });

  it("marks low at 10 % of a plan period's credits, and tells a lapse to 0", async () => {
    const trader = await setupTrader(t, 'plan@example.com', { credits: 0 });
    await createSetting(t, trader.headers, trader.connector.key, trader.accountId, 2, { email: 'p@example.com' });
    const { userId } = trader;
    const periodEnd = new Date(Date.now() + 86_400_000);
    await inTransaction(t, (tx) => startCreditPeriod(tx, userId, { credits: 100, periodEnd, reference: 'in_1' }));
    await inTransaction(t, (tx) => spendCredits(tx, userId, 89, 's1'));
    expect(await eventsOf(userId)).toEqual([]);
    await inTransaction(t, (tx) => spendCredits(tx, userId, 1, 's2'));
    expect(await eventsOf(userId)).toEqual([{ type: 'credits.low', data: { balance: 10, threshold: 10 } }]);
    await inTransaction(t, (tx) => endCreditPeriod(tx, userId, 'sub_end'));
    // The period ended: its credits lapsed, and the low mark is back to 3.
    expect((await eventsOf(userId)).at(-1)).toEqual({ type: 'credits.exhausted', data: { balance: 0, threshold: 3 } });
  });
});
