// The REST API's orders in the activity log: each call's Order entry holds the answer its caller got.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { paperOrders, setupTrader } from '../../../test/signal-fixtures.ts';
import { listActions } from '../actions/list-actions.ts';
import { accountId, requireApiAccount } from './accounts.ts';
import { placeApiOrder } from './place-order.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

it('logs an Idempotency-Key reused for another order with the 400 its caller got, not the first order', async () => {
  const trader = await setupTrader(t, 'api-key-reused@example.com');
  const account = await requireApiAccount(t.services, trader.userId, accountId(trader.connector.key, trader.accountId));
  const place = (order: Record<string, unknown>) =>
    placeApiOrder(t.services, t.app.signalRuntime, {
      userId: trader.userId,
      account,
      body: JSON.stringify(order),
      idempotencyKey: 'journal-7',
      client: 'token:1',
      address: '127.0.0.1',
      receivedAt: performance.now(),
    });
  const first = await place({ symbol: 'AAPL', action: 'buy', quantity: 2 });
  expect(first.statusCode).toBe(201);
  const other = await place({ symbol: 'MSFT', action: 'sell', quantity: 5 });
  const KEY_REUSED = 'Idempotency-Key: already used for another order; send a new key for a new order';
  expect(other).toEqual({ statusCode: 400, error: { status: 'ValidationError', message: KEY_REUSED } });
  expect(await paperOrders(t, trader.accountId)).toHaveLength(1);

  await t.app.signalRuntime.writer.flush();
  const entries = (await listActions(t.services, trader.userId, { code: 'Order' })).map(
    (entry) => JSON.parse(entry.metadata ?? '{}') as { request?: { symbol?: string }; response?: unknown },
  );
  // Before, the MSFT call's entry held the AAPL order's answer (201, filled).
  const logged = entries.filter((entry) => entry.request?.symbol === 'MSFT');
  expect(logged.map((entry) => entry.response)).toEqual([{ status: 'ValidationError', message: KEY_REUSED }]);
});
