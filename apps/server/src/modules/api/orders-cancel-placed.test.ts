// Cancelling an order through the REST API in the moment between its answer (accepted) and its
// outcome's write: the write comes first and tells order.placed, then the cancel. Cancelled first,
// the write found 'canceled' and told nothing: the trader never heard the order was placed.
import type { Broker } from '@router/brokers';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { placeTokenOrder, RESTING_BUY } from '../../../test/api-orders.ts';
import { authenticateAsUserId, startTestApp, type TestApp } from '../../../test/app.ts';
import { createSetting } from '../../../test/notification-fixtures.ts';
import { eventually, flakyBroker, setupTrader } from '../../../test/signal-fixtures.ts';
import { cancelApiOrder } from './orders.ts';

const flaky = flakyBroker({ name: 'resting' });
const cancels: string[] = [];
const broker: Broker = {
  ...flaky.broker,
  async placeOrder() {
    return { id: 'R-1', status: 'accepted', status_description: 'Accepted' };
  },
  async cancelOrder(_ctx, _session, target) {
    cancels.push(target.clientOrderId ?? '');
  },
};

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ brokers: [broker], authenticate: authenticateAsUserId });
});
afterAll(() => t.close());

it('a cancel right after the answer, before the outcome is written, still tells order.placed once', async () => {
  const trader = await setupTrader(t, 'api-cancel-placed@example.com', { provider: 'resting', credits: 5 });
  await createSetting(t, trader.headers, trader.connector.key, trader.accountId, 2, {
    email: 'api-cancel-placed@example.com',
    events: ['order.placed'],
  });
  // The outcome's write waits for `open()`: the moment after the answer, stretched.
  const rt = t.app.signalRuntime;
  const submit = rt.outcomes.submit.bind(rt.outcomes);
  let open = () => {};
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  rt.outcomes.submit = async (input) => {
    await gate;
    return submit(input);
  };
  try {
    const { id } = await placeTokenOrder(t, trader, RESTING_BUY);
    const cancelling = cancelApiOrder(t.services, rt, trader.userId, id);
    // The write is let go once the cancel is done, or has had time to be.
    await Promise.race([
      cancelling.then(
        () => {},
        () => {},
      ),
      new Promise((resolve) => setTimeout(resolve, 500)),
    ]);
    open();
    expect((await cancelling).status).toBe('canceled');
    expect(cancels).toEqual([id]);
    await eventually(async () => rt.inFlight.get(id) === undefined);
    const { rows } = await t.services.db.$client.query<{ status: string }>(
      `select s.status from signals s where s.id = $1`,
      [id],
    );
    expect(rows).toEqual([{ status: 'canceled' }]);
    const events = await t.services.db.$client.query<{ data: { signalId: string } }>(
      `select data from notification_events where user_id = $1 and type = 'order.placed'`,
      [trader.userId],
    );
    expect(events.rows.map((r) => r.data.signalId)).toEqual([id]);
  } finally {
    open();
    rt.outcomes.submit = submit;
  }
});
