// A cancel through the REST API racing a fill: the broker's cancel call returns, but the order was
// filled meanwhile (the fill follower wrote 'filled' first). The cancel's status write then matched
// nothing, and DELETE still answered 200 with the filled order, as if the cancel had worked.
import type { Broker } from '@router/brokers';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { placeTokenOrder, RESTING_BUY } from '../../../test/api-orders.ts';
import { authenticateAsUserId, startTestApp, type TestApp } from '../../../test/app.ts';
import { eventually, flakyBroker, setupTrader } from '../../../test/signal-fixtures.ts';
import { cancelApiOrder, getApiOrder } from './orders.ts';

let t: TestApp;
const broker: Broker = {
  ...flakyBroker({ name: 'resting_fill' }).broker,
  async placeOrder() {
    return { id: 'R-1', status: 'accepted', status_description: 'Accepted' };
  },
  // The fill lands while the cancel is on its way: written as the fill follower writes it.
  async cancelOrder(_ctx, _session, target) {
    await t.services.db.$client.query(`update signals set status = 'filled', price = 101 where id = $1`, [
      target.clientOrderId,
    ]);
  },
};

beforeAll(async () => {
  t = await startTestApp({ brokers: [broker], authenticate: authenticateAsUserId });
});
afterAll(() => t.close());

it('a cancel that lost the race to a fill is refused, not answered as done', async () => {
  const trader = await setupTrader(t, 'api-cancel-filled@example.com', { provider: 'resting_fill', credits: 5 });
  const rt = t.app.signalRuntime;
  const { id } = await placeTokenOrder(t, trader, RESTING_BUY);
  await rt.writer.flush();
  await eventually(async () => rt.inFlight.get(id) === undefined);
  await expect(cancelApiOrder(t.services, rt, trader.userId, id)).rejects.toMatchObject({
    code: 'EXECUTION',
    message: 'Order is filled: it could not be canceled',
  });
  expect((await getApiOrder(t.services, rt, trader.userId, id)).status).toBe('filled');
});
