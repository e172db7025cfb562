// The REST API's orders whose broker call outlives the hook's deadline: answered before the
// broker said anything, they read `pending` (as on another instance, which has only the row), and
// cannot be cancelled while their placing still runs.
import type { Broker } from '@router/brokers';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { eventually, flakyBroker, setupTrader, signalRows } from '../../../test/signal-fixtures.ts';
import { accountId, requireApiAccount } from './accounts.ts';
import { cancelApiOrder, getApiOrder } from './orders.ts';
import { placeApiOrder } from './place-order.ts';

const flaky = flakyBroker();
const cancels: string[] = [];
const broker: Broker = {
  ...flaky.broker,
  async cancelOrder(_ctx, _session, target) {
    cancels.push(target.clientOrderId ?? '');
  },
};

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ brokers: [broker], env: { HOOK_DEADLINE_MS: '200' } });
});
afterAll(() => t.close());

it('an order still being placed after the deadline is pending, and its cancel is refused until it is placed', async () => {
  const trader = await setupTrader(t, 'api-slow@example.com', { provider: 'flaky', credits: 5 });
  const account = await requireApiAccount(t.services, trader.userId, accountId(trader.connector.key, trader.accountId));
  flaky.mode = 'slow';
  flaky.delayMs = 1_500;
  const placed = await placeApiOrder(t.services, t.app.signalRuntime, {
    userId: trader.userId,
    account,
    body: JSON.stringify({ symbol: 'AAPL', action: 'buy', quantity: 1 }),
    idempotencyKey: undefined,
    client: 'token:1',
    address: '127.0.0.1',
    receivedAt: performance.now(),
  });
  if (!('order' in placed)) throw new Error(JSON.stringify(placed.error));
  const { id } = placed.order;
  // The broker has not answered: nothing is known of the order yet.
  expect(placed.order.status).toBe('pending');
  expect((await getApiOrder(t.services, t.app.signalRuntime, trader.userId, id)).status).toBe('pending');
  await expect(cancelApiOrder(t.services, t.app.signalRuntime, trader.userId, id)).rejects.toMatchObject({
    message: 'Order is still being placed: try again shortly',
  });
  expect(cancels).toEqual([]);
  await eventually(async () => (await signalRows(t, trader.userId))[0]?.status === 'filled', 5_000);
  expect((await getApiOrder(t.services, t.app.signalRuntime, trader.userId, id)).status).toBe('filled');
});
