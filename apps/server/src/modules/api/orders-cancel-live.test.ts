// A cancel through the REST API (DELETE /api/v1/orders/{id}) changes the order's status, which the
// dashboard's activity shows: open screens are told (activity_added), as every other activity write
// does. It told nothing, and an open screen showed the order as still resting until reloaded.
import type { Broker } from '@router/brokers';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { placeTokenOrder, RESTING_BUY } from '../../../test/api-orders.ts';
import { authenticateAsUserId, startTestApp, type TestApp } from '../../../test/app.ts';
import { eventually, flakyBroker, setupTrader } from '../../../test/signal-fixtures.ts';
import { ACTIVITY_ADDED_CHANNEL } from '../../db/repositories/live.repository.ts';
import { cancelApiOrder } from './orders.ts';

const broker: Broker = {
  ...flakyBroker({ name: 'resting_live' }).broker,
  async placeOrder() {
    return { id: 'R-1', status: 'accepted', status_description: 'Accepted' };
  },
  async cancelOrder() {},
};

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ brokers: [broker], authenticate: authenticateAsUserId });
});
afterAll(() => t.close());

it("tells the user's open screens that their activity changed when an order is canceled", async () => {
  const trader = await setupTrader(t, 'api-cancel-live@example.com', { provider: 'resting_live', credits: 5 });
  const rt = t.app.signalRuntime;
  const { id } = await placeTokenOrder(t, trader, RESTING_BUY);
  // Its outcome written (and told) before the screen listens.
  await rt.writer.flush();
  await eventually(async () => rt.inFlight.get(id) === undefined);
  const listener = await t.services.db.$client.connect();
  const told: string[] = [];
  try {
    listener.on('notification', (message) => {
      if (message.channel === ACTIVITY_ADDED_CHANNEL) told.push(message.payload ?? '');
    });
    await listener.query(`listen ${ACTIVITY_ADDED_CHANNEL}`);
    expect((await cancelApiOrder(t.services, rt, trader.userId, id)).status).toBe('canceled');
    await eventually(async () => told.some((ids) => ids.split(',').includes(String(trader.userId))));
  } finally {
    await listener.query(`unlisten ${ACTIVITY_ADDED_CHANNEL}`);
    listener.release();
  }
});
