// An order placed (or refused) through the REST API is told as the REST API's, with the application
// or token that placed it: its mail read `Webhook "REST API" sent an order`, naming a webhook the
// user never made (the API's own hook, never listed), and then named no caller.
import type { Broker } from '@router/brokers';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { placeTokenOrder, RESTING_BUY } from '../../../test/api-orders.ts';
import { authenticateAsUserId, startTestApp, type TestApp } from '../../../test/app.ts';
import { createSetting } from '../../../test/notification-fixtures.ts';
import { eventually, flakyBroker, setupTrader } from '../../../test/signal-fixtures.ts';
import { accountId, requireApiAccount } from '../api/accounts.ts';
import { placeApiOrder } from '../api/place-order.ts';
import { describeEvent } from './event-text.ts';

const broker: Broker = {
  ...flakyBroker({ name: 'api_told' }).broker,
  async placeOrder() {
    return { id: 'R-1', status: 'accepted', status_description: 'Accepted' };
  },
};

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ brokers: [broker], authenticate: authenticateAsUserId });
});
afterAll(() => t.close());

it("an API order's mail says it came from the REST API and which application sent it", async () => {
  const trader = await setupTrader(t, 'api-told@example.com', { provider: 'api_told', credits: 5 });
  await createSetting(t, trader.headers, trader.connector.key, trader.accountId, 2, {
    email: 'api-told@example.com',
    events: ['order.placed'],
  });
  const { id } = await placeTokenOrder(t, trader, RESTING_BUY, 'Journal Pro');
  await t.app.signalRuntime.writer.flush();
  let data: Record<string, unknown> | undefined;
  await eventually(async () => {
    const { rows } = await t.services.db.$client.query<{ data: Record<string, unknown> }>(
      `select data from notification_events where user_id = $1 and type = 'order.placed'`,
      [trader.userId],
    );
    data = rows[0]?.data;
    return data !== undefined;
  });
  expect(data?.signalId).toBe(id);
  expect(data?.hook).toMatchObject({ api: true, via: 'Journal Pro' });
  const { intro } = describeEvent('order.placed', data ?? {}, (name) => name);
  expect(intro).toBe(`Journal Pro sent an order through the REST API to api_told account ${trader.accountId}.`);
  // Kept on the signal's row: a later event of the order (filled, rejected by reconciliation) names it too.
  const { rows } = await t.services.db.$client.query<{ via: string | null }>('select via from signals where id = $1', [
    id,
  ]);
  expect(rows[0]?.via).toBe('Journal Pro');
});

it("an API order refused is told as the REST API's and its caller's, not as a webhook's", async () => {
  const trader = await setupTrader(t, 'api-refused@example.com', { provider: 'api_told', credits: 5 });
  await createSetting(t, trader.headers, trader.connector.key, trader.accountId, 2, {
    email: 'api-refused@example.com',
    events: ['signal.refused'],
  });
  const account = await requireApiAccount(t.services, trader.userId, accountId(trader.connector.key, trader.accountId));
  const placed = await placeApiOrder(t.services, t.app.signalRuntime, {
    userId: trader.userId,
    account,
    body: JSON.stringify({ symbol: 'AAPL', action: 'hold', quantity: 1 }),
    idempotencyKey: undefined,
    client: 'token:1',
    caller: 'API token "bot"',
    address: '127.0.0.1',
    receivedAt: performance.now(),
  });
  expect(placed.statusCode).toBe(400);
  await t.app.signalRuntime.writer.flush();
  let data: Record<string, unknown> | undefined;
  await eventually(async () => {
    const { rows } = await t.services.db.$client.query<{ data: Record<string, unknown> }>(
      `select data from notification_events where user_id = $1 and type = 'signal.refused'`,
      [trader.userId],
    );
    data = rows[0]?.data;
    return data !== undefined;
  });
  const told = describeEvent('signal.refused', data ?? {}, (name) => name);
  expect(told.summary).toBe('Signal refused on the REST API (API token "bot")');
  expect(told.path).not.toContain('hook=');
});
