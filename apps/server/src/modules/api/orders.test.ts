// The REST API's orders whose broker call outlives the hook's deadline: answered before the
// broker said anything, they read `pending` (as on another instance, which has only the row), and
// cannot be cancelled while their placing still runs.
import type { Broker } from '@router/brokers';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { placeTokenOrder } from '../../../test/api-orders.ts';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { eventually, flakyBroker, setupTrader, signalRows } from '../../../test/signal-fixtures.ts';
import { cancelApiOrder, getApiOrder } from './orders.ts';

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
  flaky.mode = 'slow';
  flaky.delayMs = 1_500;
  const placed = await placeTokenOrder(t, trader, { symbol: 'AAPL', action: 'buy', quantity: 1 });
  const { id } = placed;
  // The broker has not answered: nothing is known of the order yet.
  expect(placed.status).toBe('pending');
  expect((await getApiOrder(t.services, t.app.signalRuntime, trader.userId, id)).status).toBe('pending');
  await expect(cancelApiOrder(t.services, t.app.signalRuntime, trader.userId, id)).rejects.toMatchObject({
    message: 'Order is still being placed: try again shortly',
  });
  expect(cancels).toEqual([]);
  await eventually(async () => (await signalRows(t, trader.userId))[0]?.status === 'filled', 5_000);
  expect((await getApiOrder(t.services, t.app.signalRuntime, trader.userId, id)).status).toBe('filled');
});
