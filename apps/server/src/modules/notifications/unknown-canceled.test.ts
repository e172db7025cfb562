// An order whose answer was lost ('unknown'), found by reconciliation canceled at the broker: a
// limit order that rested, then was canceled at the broker (or expired), was placed. It was told
// as order.rejected ("Order rejected"), as if the broker had refused it; only an IOC or FOK order
// canceled by the broker never worked.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { authenticateAsUserId, startTestApp, type TestApp } from '../../../test/app.ts';
import { createSetting } from '../../../test/notification-fixtures.ts';
import { eventually, flakyBroker, postSignal, setupTrader } from '../../../test/signal-fixtures.ts';
import { orderEventTypesSql } from '../../db/repositories/signal-events.sql.ts';

let t: TestApp;
const lost = flakyBroker({ name: 'flaky_lost_cancel' });

beforeAll(async () => {
  t = await startTestApp({ authenticate: authenticateAsUserId, brokers: [lost.broker] });
});
afterAll(() => t.close());

it('a resting limit order found canceled after its answer was lost is told as placed, not rejected', async () => {
  const trader = await setupTrader(t, 'unknown-canceled@example.com', { provider: 'flaky_lost_cancel' });
  await createSetting(t, trader.headers, trader.connector.key, trader.accountId, 2, {
    email: 'unknown-canceled@example.com',
  });
  lost.mode = 'unknown';
  const limit = { symbol: 'AAPL', action: 'buy', quantity: 1, type: 'limit', limit_price: 1, duration: 'gtc' };
  const signalId = (await postSignal(t, trader.shortKey, limit)).json().id as string;
  lost.mode = 'fill';
  const status = async () =>
    (await t.database.pool.query('select status from signals where id = $1', [signalId])).rows[0]?.status;
  await eventually(async () => (await status()) === 'unknown');
  // Meanwhile the user canceled it at the broker.
  const order = lost.orders.get(signalId);
  if (!order) throw new Error('the broker has no such order');
  lost.orders.set(signalId, { id: order.id, status: 'canceled', status_description: 'Canceled by user' });
  await t.app.signalRuntime.reconcile(0);
  await eventually(async () => (await status()) === 'canceled');
  const { rows } = await t.database.pool.query<{ type: string; status: string }>(
    `select type, data->>'status' as status from notification_events where data->>'signalId' = $1`,
    [signalId],
  );
  expect(rows).toEqual([{ type: 'order.placed', status: 'canceled' }]);
});

it('an IOC or FOK order found canceled (it did not fill) is still told as rejected', async () => {
  const told = async (duration: string) =>
    (
      await t.database.pool.query<{ types: string[] }>(
        `select ${orderEventTypesSql(`'canceled'`, `'unknown'`, '$1::jsonb')} as types`,
        [JSON.stringify({ action: 'buy', duration })],
      )
    ).rows[0]?.types;
  expect(await told('ioc')).toEqual(['order.rejected']);
  expect(await told('FOK')).toEqual(['order.rejected']);
  expect(await told('fak')).toEqual(['order.rejected']);
  expect(await told('day')).toEqual(['order.placed']);
});
