// A pack refunded while a live signal holding one of its credits has its outcome written at that
// very moment (the hook's statement holds the signal's row and waits for the account the refund
// holds): the refund neither skips that credit nor waits (a deadlock); its event is applied again
// once the outcome is written, and takes the credit back once, whatever the outcome.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Billing, buy, postEvent, startBilling, takeEvents } from '../../../test/billing.ts';
import { accountOf, expectBalancedLedger } from '../../../test/credit-fixtures.ts';
import { hookBooks, setupTrader } from '../../../test/signal-fixtures.ts';
import { PRODUCT_ID } from '../../../test/stripe-fake/catalog.ts';
import { clearCatalog } from './catalog.ts';

let b: Billing;
let pack = '';
beforeAll(async () => {
  b = await startBilling();
  pack = (
    await b.stripe.prices.create({ currency: 'usd', unit_amount: 500, metadata: { credits: '2' }, product: PRODUCT_ID })
  ).id;
  clearCatalog(b.t.services);
});
afterAll(() => b?.close());

describe('a refund of a pack while a held credit’s outcome is being written', () => {
  it('is applied again after that outcome, and takes the credit back once', async () => {
    const trader = await setupTrader(b.t, 'outcome-now@billing.test', { credits: 0 });
    const { sessionId, events } = await buy(b, trader.headers, pack);
    for (const event of events) expect((await postEvent(b, event)).status).toBe(200);
    const { store } = await hookBooks(b.t, trader);
    await store('outcomeNowSignal0001');
    expect(await accountOf(b.t, trader.userId)).toMatchObject({ balance: 1 });
    // The hook's outcome statement has the signal's row (a transaction of the test holds it).
    const hook = await b.t.services.db.$client.connect();
    const warn = vi.spyOn(b.t.services.log, 'warn');
    try {
      await hook.query('begin');
      await hook.query('select id from signals where id = $1 for update', ['outcomeNowSignal0001']);
      const intent = String(b.fake.store.get('checkout.session', sessionId).payment_intent);
      await b.stripe.refunds.create({ payment_intent: intent });
      let settled = false;
      const delivered = Promise.all(takeEvents(b).map((event) => postEvent(b, event))).finally(() => {
        settled = true;
      });
      // The refund's event has run into the held signal (and will run again), or was applied.
      await vi.waitFor(() => expect(settled || warn.mock.calls.length > 0).toBe(true), { timeout: 10_000 });
      // The order failed: its credit is released, as the hook writes it, then the refund runs again.
      await (await hookBooks(b.t, trader, hook)).reject('outcomeNowSignal0001');
      await hook.query('commit');
      for (const answer of await delivered) expect(answer.status).toBe(200);
    } finally {
      hook.release();
      warn.mockRestore();
    }
    expect(await accountOf(b.t, trader.userId)).toMatchObject({ balance: 0, credits: 0, signals_spent: 0 });
    await expectBalancedLedger(b.t, trader.userId);
  });
});
