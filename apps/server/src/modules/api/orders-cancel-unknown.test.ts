// Cancelling through the REST API an order whose broker call was lost (status 'unknown', before
// reconciliation looked it up): reconciliation leaves a 'canceled' row alone, so the cancel's
// own write tells order.placed (the broker had the order: it cancelled it), once. An unknown
// order reconciliation gave up on was told already (order.placed, status 'unknown'): its cancel
// tells nothing more.
import type { Broker } from '@router/brokers';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { placeTokenOrder, RESTING_BUY } from '../../../test/api-orders.ts';
import { authenticateAsUserId, startTestApp, type TestApp } from '../../../test/app.ts';
import { createSetting } from '../../../test/notification-fixtures.ts';
import { eventually, flakyBroker, setupTrader, signalRows } from '../../../test/signal-fixtures.ts';
import { markSignalsUnconfirmed } from '../../db/repositories/signal-reconcile.repository.ts';
import { cancelApiOrder } from './orders.ts';

const flaky = flakyBroker({ name: 'lossy' });
const broker: Broker = { ...flaky.broker, async cancelOrder() {} };

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ brokers: [broker], authenticate: authenticateAsUserId });
});
afterAll(() => t.close());

/** A trader with an order.placed setting and one order whose outcome is unknown. */
async function unknownOrder(email: string) {
  const trader = await setupTrader(t, email, { provider: 'lossy', credits: 5 });
  await createSetting(t, trader.headers, trader.connector.key, trader.accountId, 2, {
    email,
    events: ['order.placed', 'order.rejected'],
  });
  flaky.mode = 'unknown';
  const { id } = await placeTokenOrder(t, trader, RESTING_BUY);
  await eventually(async () => (await signalRows(t, trader.userId))[0]?.status === 'unknown');
  return { trader, id };
}

async function orderEvents(userId: number) {
  const { rows } = await t.services.db.$client.query<{ type: string; signal: string; status: string }>(
    `select type, data->>'signalId' as signal, data->>'status' as status from notification_events
      where user_id = $1 and type like 'order.%' order by created_at`,
    [userId],
  );
  return rows;
}

it('cancelling an order whose outcome is unknown tells order.placed once, with status canceled', async () => {
  const { trader, id } = await unknownOrder('api-cancel-unknown@example.com');
  expect(await orderEvents(trader.userId)).toEqual([]);
  expect((await cancelApiOrder(t.services, t.app.signalRuntime, trader.userId, id)).status).toBe('canceled');
  expect(await orderEvents(trader.userId)).toEqual([{ type: 'order.placed', signal: id, status: 'canceled' }]);
});

it('cancelling an unknown order reconciliation gave up on tells nothing more', async () => {
  const { trader, id } = await unknownOrder('api-cancel-given-up@example.com');
  await t.services.db.$client.query(`update signals set lease_owner = 'test', attempts = 1 where id = $1`, [id]);
  await markSignalsUnconfirmed(t.services.db.$client, [
    { id, from: 'unknown', leaseOwner: 'test', attempt: 1, response: '{"status_description":"check the account"}' },
  ]);
  const told = [{ type: 'order.placed', signal: id, status: 'unknown' }];
  expect(await orderEvents(trader.userId)).toEqual(told);
  expect((await cancelApiOrder(t.services, t.app.signalRuntime, trader.userId, id)).status).toBe('canceled');
  expect(await orderEvents(trader.userId)).toEqual(told);
});
