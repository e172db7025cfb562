// Events emitted together (one statement: a batch of refusals, a signal's order.placed and
// order.filled) are queued in the order they were emitted, so the worker sends them, and a
// digest lists them, in the order they happened.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticateAsUserId, startTestApp, type TestApp } from '../../../test/app.ts';
import { createSetting } from '../../../test/notification-fixtures.ts';
import { setupTrader } from '../../../test/signal-fixtures.ts';
import { emitEvents, type NotificationEvent } from '../../modules/notifications/events.ts';
import { claimDueDeliveries } from './notification-deliveries.repository.ts';

let t: TestApp;

beforeAll(async () => {
  // The app's own worker stays idle: the case claims the deliveries itself.
  t = await startTestApp({
    env: { ALLOW_PRIVATE_WEBHOOKS: 'true' },
    authenticate: authenticateAsUserId,
    notifications: { pollMs: 600_000, maintenanceMs: 600_000 },
  });
});
afterAll(async () => {
  await t.close();
});

async function trader(email: string) {
  const trader = await setupTrader(t, email);
  const setting = await createSetting(t, trader.headers, trader.connector.key, trader.accountId, 1, {
    url: 'https://127.0.0.1:9/hooks',
  });
  const { rows } = await t.services.db.$client.query<{ id: string; connector_id: string }>(
    'select id, connector_id from notifications where key = $1',
    [setting.key],
  );
  const row = rows[0];
  if (!row) throw new Error('setting not found');
  return { ...trader, notificationId: Number(row.id), connectorId: Number(row.connector_id) };
}

/** The due deliveries of one setting, in the order the worker claims (and sends) them. */
async function claimedOf(notificationId: number) {
  const claimed = await t.services.db.transaction((tx) => claimDueDeliveries(tx, 1000, [], 1));
  return claimed.filter((d) => d.notificationId === notificationId);
}

describe('events emitted together', () => {
  it('are sent in the order they were emitted: a batch of refusals, a signal placed then filled', async () => {
    const who = await trader('outbox-order@example.com');
    const scope = { userId: who.userId, connectorId: who.connectorId, accountId: who.accountId };
    const base = {
      hook: { key: who.hook.key, name: 'Main' },
      connectorKey: who.connector.key,
      providerName: 'paper',
      accountId: who.accountId,
    };
    // The refusals of one 200 ms batch of the activity writer, as the hook queued them.
    const writer = t.app.signalRuntime.writer;
    for (let i = 1; i <= 12; i++) {
      writer.notify({
        ...scope,
        type: 'signal.refused',
        data: { ...base, reason: 'invalid', message: `refusal ${i}` },
      });
    }
    await writer.flush();
    const refusals = await claimedOf(who.notificationId);
    expect(refusals.map((d) => d.data.message)).toEqual(Array.from({ length: 12 }, (_, i) => `refusal ${i + 1}`));

    // A signal filled in the broker's answer: order.placed, then order.filled (one statement).
    const order = (type: 'order.placed' | 'order.filled', n: number): NotificationEvent => ({
      ...scope,
      type,
      data: {
        ...base,
        signalId: `sig-${n}`,
        order: { symbol: 'AAPL', action: 'buy', quantity: 1 },
        status: 'filled',
        brokerOrderId: `b-${n}`,
        price: 100 + n,
      },
    });
    const events = Array.from({ length: 6 }, (_, n) => [order('order.placed', n), order('order.filled', n)]).flat();
    await emitEvents(t.services.db, events);
    const orders = (await claimedOf(who.notificationId)).filter((d) => d.eventType !== 'signal.refused');
    expect(orders.map((d) => `${d.eventType} ${d.data.signalId}`)).toEqual(
      events.map((e) => `${e.type} ${(e.data as { signalId: string }).signalId}`),
    );
  });
});
