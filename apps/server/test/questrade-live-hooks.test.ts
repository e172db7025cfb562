// Questrade through the server as a trader meets it, against its protocol fake
// (QUESTRADE_BASE_URL, QUESTRADE_CLIENT_ID): connected through the consent page, one live hook;
// an answer that names the broker's order id beside an error code (the order's state not given)
// leaves the signal unknown with that id stored, and reconciliation looks that very order up.
import { brokerVariables } from '@router/brokers';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type QuestradeFake, startQuestradeFake } from '../../../packages/brokers/src/adapters/questrade/fake.ts';
import { reconcileOnce } from '../src/modules/signals/reconcile.ts';
import { authenticateAsUserId, startTestApp, type TestApp } from './app.ts';
import { connectWithOAuth, createLiveHook, type Trader, trader } from './broker-journey.ts';
import { postSignal, signalRows } from './signal-fixtures.ts';

let t: TestApp;
let fake: QuestradeFake;
let user: Trader;
let shortKey: string;
let accountNumber: string;

beforeAll(async () => {
  fake = await startQuestradeFake({ seed: true });
  t = await startTestApp({
    authenticate: authenticateAsUserId,
    env: brokerVariables('questrade', { baseUrl: fake.url, clientId: fake.clientId }),
  });
  user = await trader(t, 'questrade@example.com');
  await t.services.db.$client.query('update accounts set balance = 50, credits = 50 where user_id = $1', [user.userId]);
  const connector = await connectWithOAuth(t, user, 'questrade');
  accountNumber = (JSON.parse(connector.accounts) as Array<{ id: string }>)[0]?.id ?? '';
  shortKey = await createLiveHook(t, user, connector);
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

describe('Questrade: a live hook', () => {
  it('a code beside an order id, its state not given: unknown with that id stored, reconciled to that very order', async () => {
    // Questrade took the order (id N) and answered with a code and N but no order record.
    const terms = {
      accountNumber,
      symbolId: 8049,
      quantity: 1,
      limitPrice: 150,
      isAllOrNone: false,
      isAnonymous: false,
      orderType: 'Limit',
      timeInForce: 'Day',
      action: 'Buy',
      primaryRoute: 'AUTO',
      secondaryRoute: 'AUTO',
    };
    const taken = fake.book.placeSingle(accountNumber, terms, false) as { orderId: number };
    const path = `/v1/accounts/${accountNumber}/orders`;
    const body = { code: 3054, message: 'Order rejected', orderId: taken.orderId, orders: [] };
    fake.inject({ method: 'POST', path, status: 200, body });
    const before = fake.submissions().length;
    const answer = await postSignal(t, shortKey, { symbol: 'AAPL', action: 'buy', quantity: 1, limit_price: 150 });
    expect(answer.statusCode, answer.body).toBe(201);
    const { id } = answer.json() as { id: string };
    expect(fake.submissions()).toHaveLength(before + 1);
    const stored = async () => (await signalRows(t, user.userId)).find((row) => row.id === id);
    // The outcome is written after the answer: wait for that write, which is the state under test.
    await vi.waitFor(
      async () =>
        expect(await stored()).toMatchObject({
          status: 'unknown',
          broker_order_id: String(taken.orderId),
          credit_held: true,
        }),
      { timeout: 10_000 },
    );

    const options = { owner: 'questrade-test', inFlight: { ids: () => [] }, staleAfterMs: 0, intervalMs: 1_000 };
    const lookups = fake.requests.length;
    expect(await reconcileOnce(t.services, options)).toBe(1);
    // Looked up by its id, not by terms: that very order, never sent again.
    expect(fake.requests.slice(lookups).map((request) => request.url)).toContain(`${path}/${taken.orderId}`);
    expect(await stored()).toMatchObject({ status: 'accepted', broker_order_id: String(taken.orderId) });
    expect(fake.submissions()).toHaveLength(before + 1);
  });
});
