// Every event type end to end: signals sent to the hook become order.placed, order.filled,
// order.rejected, signal.refused, credits.low and credits.exhausted, the connection's expiry
// and deactivation become connector.expiring and connector.deactivated, each
// delivered once as a mail to a real SMTP server and once as a signed webhook that a local
// receiver verifies with the `standardwebhooks` package. A user without settings gets nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticateAsUserId, startTestApp, type TestApp } from '../../../test/app.ts';
import { gql } from '../../../test/connector-fixtures.ts';
import { createSetting } from '../../../test/notification-fixtures.ts';
import { eventually, flakyBroker, postSignal, setupTrader } from '../../../test/signal-fixtures.ts';
import { type SmtpSink, startSmtpSink } from '../../../test/smtp-sink.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../../test/webhook-receiver.ts';
import { orderEventTypesSql } from '../../db/repositories/signal-events.sql.ts';
import { deactivateConnector } from '../connectors/index.ts';

let t: TestApp;
let sink: SmtpSink;
const receivers: WebhookReceiver[] = [];
const flaky = flakyBroker();

beforeAll(async () => {
  sink = await startSmtpSink();
  t = await startTestApp({
    env: { SMTP_URL: sink.url, PUBLIC_URL: 'https://router.example', ALLOW_PRIVATE_WEBHOOKS: 'true' },
    authenticate: authenticateAsUserId,
    brokers: [flaky.broker],
    notifications: { pollMs: 25 },
  });
});
afterAll(async () => {
  await t.close();
  for (const receiver of receivers) await receiver.close();
  await sink.close();
});

/**
 * A trader of the case's own, with a webhook to a receiver of its own and a mail address of its
 * own: what a case waits for and counts is what it caused. Granted 10 (low mark: 20 %, 2), 3
 * left: the first signal reaches the low mark, the third exhausts them.
 */
async function desk(name: string) {
  const receiver = await startWebhookReceiver();
  receivers.push(receiver);
  const trader = await setupTrader(t, `${name}@example.com`, { provider: 'flaky', credits: 10 });
  await t.services.db.$client.query('update accounts set credits = 3 where user_id = $1', [trader.userId]);
  const hook = await createSetting(t, trader.headers, trader.connector.key, 'F-1', 1, { url: `${receiver.url}/in` });
  receiver.secret = hook.secret ?? '';
  const email = `${name}-desk@example.com`;
  await createSetting(t, trader.headers, trader.connector.key, 'F-1', 2, { email });

  /** The verified webhooks of one type so far (waits until `count` arrived). */
  async function webhooks(type: string, count = 1) {
    for (let i = 0; i < 200; i++) {
      const found = receiver.received.filter((r) => r.payload?.type === type);
      if (found.length >= count) return found;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`expected ${count} ${type} webhook(s)`);
  }

  async function mail(subject: string) {
    for (let i = 0; i < 200; i++) {
      const found = sink.mails.find((m) => m.to.includes(email) && m.subject.startsWith(subject));
      if (found) return found;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`no mail "${subject}"`);
  }

  /** A signal the broker refuses (its mode put back whatever happens). */
  async function refused(body: Record<string, unknown>) {
    flaky.mode = 'refuse';
    try {
      return await postSignal(t, trader.shortKey, body);
    } finally {
      flaky.mode = 'fill';
    }
  }

  return { trader, receiver, webhooks, mail, refused };
}

const BUY = { symbol: 'AAPL', action: 'buy', quantity: 1 };
/** The data keys of order.placed, order.filled and order.rejected (docs/WEBHOOKS.md), sorted. */
const ORDER_EVENT_KEYS = [
  'accountId',
  'brokerOrderId',
  'connectorKey',
  'hook',
  'message',
  'order',
  'price',
  'providerName',
  'signalId',
  'status',
];

describe('notifications of the signal path', () => {
  it('tells an order placed and filled, and the credits reaching the low mark', async () => {
    const { trader, webhooks, mail } = await desk('placed');
    const brokerOrders = flaky.orders.size;
    const res = await postSignal(t, trader.shortKey, BUY);
    expect(res.statusCode).toBe(201);
    const { rows } = await t.services.db.$client.query('select id from signals where user_id = $1', [trader.userId]);
    expect(rows).toHaveLength(1);
    const signalId = String(rows[0]?.id);
    const [placed] = await webhooks('order.placed');
    expect(placed?.verifyError).toBeNull();
    expect(placed?.payload?.data).toMatchObject({
      signalId,
      hook: { key: trader.hook.key, name: 'Main' },
      connectorKey: trader.connector.key,
      providerName: 'flaky',
      accountId: 'F-1',
      order: { symbol: 'AAPL', action: 'buy', quantity: 1 },
      status: 'filled',
      // The id the broker gave this order (its next one).
      brokerOrderId: `FB-${brokerOrders + 1}`,
      price: 10,
    });
    // The keys docs/WEBHOOKS.md promises, every one present (message null but on order.rejected).
    expect(Object.keys(placed?.payload?.data ?? {}).sort()).toEqual(ORDER_EVENT_KEYS);
    expect(placed?.payload?.data.message).toBeNull();
    const [filled] = await webhooks('order.filled');
    expect(Object.keys(filled?.payload?.data ?? {}).sort()).toEqual(ORDER_EVENT_KEYS);
    expect(filled?.id).not.toBe(placed?.id);
    expect(filled?.payload?.data).toMatchObject({ signalId, status: 'filled', price: 10 });
    const [low] = await webhooks('credits.low');
    expect(low?.payload?.data).toEqual({ balance: 2, threshold: 2 });

    const placedMail = await mail('Order placed: BUY 1 AAPL on Flaky Broker');
    expect(placedMail.text).toContain(`https://router.example/me?signal=${signalId}`);

    expect((await mail('Order filled: BUY 1 AAPL at 10 on Flaky Broker')).text).toContain('Average price: 10');
    expect((await mail('You have 2 signals left')).text).toContain('Low at: 2');
  });

  it("tells a rejected order with the broker's message", async () => {
    const { webhooks, mail, refused } = await desk('rejected');
    const res = await refused({ ...BUY, quantity: 2 });
    expect(res.json()).toEqual({ status: 'ExecutionError', message: 'Flaky Broker: insufficient buying power' });
    const [rejected] = await webhooks('order.rejected');
    expect(rejected?.verifyError).toBeNull();
    expect(rejected?.payload?.data).toMatchObject({
      status: 'rejected',
      message: 'Flaky Broker: insufficient buying power',
      order: { quantity: 2 },
    });
    expect(Object.keys(rejected?.payload?.data ?? {}).sort()).toEqual(ORDER_EVENT_KEYS);
    const text = (await mail('Order rejected: BUY 2 AAPL on Flaky Broker')).text;
    expect(text).toContain('Message: Flaky Broker: insufficient buying power');
  });

  it("never sends the webhook URL's key (it places orders): in no webhook, in no mail", async () => {
    const { trader, receiver, webhooks, mail, refused } = await desk('secret');
    // Events queued before the key was left out lost it in migration 0034.
    expect((await postSignal(t, trader.shortKey, BUY)).statusCode).toBe(201);
    await refused({ ...BUY, quantity: 2 });
    await postSignal(t, trader.shortKey, { symbol: 'AAPL', action: 'hold', quantity: 1 });
    const told = [
      ...(await webhooks('order.placed')),
      ...(await webhooks('order.rejected')),
      ...(await webhooks('signal.refused')),
    ];
    for (const webhook of told) expect(webhook.payload?.data.hook).toEqual({ key: trader.hook.key, name: 'Main' });
    await mail('Order placed');
    await mail('Order rejected');
    await mail('Signal refused');
    for (const webhook of receiver.received) expect(webhook.body).not.toContain(trader.shortKey);
    const mails = sink.mails.filter((m) => m.to.includes('secret-desk@example.com'));
    expect(mails.length).toBeGreaterThanOrEqual(4);
    for (const sent of mails) expect(`${sent.subject}\n${sent.text}`).not.toContain(trader.shortKey);
  });

  it("never passes on the connection's secret a broker echoed in its error: answer, activity, webhook, mail", async () => {
    const { trader, receiver, webhooks, mail } = await desk('echo');
    flaky.mode = 'echo';
    const res = await postSignal(t, trader.shortKey, BUY).finally(() => {
      flaky.mode = 'fill';
    });
    const told = 'Flaky Broker: bad request (Authorization: Bearer [redacted])';
    expect(res.json()).toEqual({ status: 'ExecutionError', message: told });
    const [rejected] = await webhooks('order.rejected');
    expect(rejected?.payload?.data.message).toBe(told);
    expect((await mail('Order rejected')).text).toContain(`Message: ${told}`);
    await t.app.signalRuntime.writer.flush();
    const { rows } = await t.services.db.$client.query('select metadata::text as m from actions where user_id = $1', [
      trader.userId,
    ]);
    // The flaky connection's secret is the word "secret".
    for (const text of [...rows.map((row) => String(row.m)), ...receiver.received.map((r) => r.body)]) {
      expect(text).not.toContain('Bearer secret');
    }
  });

  it('tells the low mark once, not again when a rejected order gave its credit back', async () => {
    const { trader, refused } = await desk('refunded');
    const lows = async () =>
      (
        await t.services.db.$client.query(
          `select 1 from notification_events where user_id = $1 and type = 'credits.low'`,
          [trader.userId],
        )
      ).rowCount;
    const balance = async () =>
      Number(
        (await t.services.db.$client.query('select balance from accounts where user_id = $1', [trader.userId])).rows[0]
          ?.balance,
      );
    // 3 → 2 (low, told), the rejection gives the credit back (3) ...
    expect((await refused(BUY)).statusCode).toBe(400);
    expect(await lows()).toBe(1);
    await eventually(async () => (await balance()) === 3);
    // ... and the next order takes it again (2): no news.
    expect((await postSignal(t, trader.shortKey, { ...BUY, quantity: 2 })).statusCode).toBe(201);
    await eventually(async () => (await balance()) === 2);
    expect(await lows()).toBe(1);
  });

  it("tells an order the broker ended at once (canceled) as rejected with its message, a cancel signal's as placed", async () => {
    const { trader, webhooks, mail } = await desk('ended');
    const place = flaky.broker.placeOrder;
    Object.assign(flaky.broker, {
      placeOrder: async (...args: Parameters<typeof place>) => {
        const { price: _, ...order } = await place(...args);
        return { ...order, status: 'canceled', status_description: 'Expired' };
      },
    });
    try {
      expect((await postSignal(t, trader.shortKey, BUY)).statusCode).toBe(201);
    } finally {
      Object.assign(flaky.broker, { placeOrder: place });
    }
    // The outcome (and its events) is written after the answer.
    await eventually(async () => {
      const { rows } = await t.services.db.$client.query('select status from signals where user_id = $1', [
        trader.userId,
      ]);
      return rows[0]?.status === 'canceled';
    });
    const { rows } = await t.services.db.$client.query<{ action: string; types: string[] }>(
      `select s."order"->>'action' as action,
        coalesce(array_agg(e.type order by e.type) filter (where e.id is not null), '{}') as types
      from signals s left join notification_events e on e.data->>'signalId' = s.id::text
      where s.user_id = $1 group by s.id order by 1`,
      [trader.userId],
    );
    expect(rows).toEqual([{ action: 'buy', types: ['order.rejected'] }]);
    // A cancel or close signal's success is answered canceled too: that one was carried out.
    const told = async (action: string) =>
      (
        await t.services.db.$client.query<{ types: string[] }>(
          `select ${orderEventTypesSql(`'canceled'`, `'placing'`, '$1::jsonb')} as types`,
          [JSON.stringify({ action })],
        )
      ).rows[0]?.types;
    expect(await told('cancel')).toEqual(['order.placed']);
    expect(await told('close')).toEqual(['order.placed']);
    expect(await told('sell')).toEqual(['order.rejected']);
    const [rejected] = await webhooks('order.rejected');
    expect(rejected?.payload?.data).toMatchObject({
      status: 'canceled',
      message: 'Flaky Broker: Expired',
      order: { symbol: 'AAPL', action: 'buy' },
    });
    expect((await mail('Order rejected: BUY 1 AAPL on Flaky Broker')).text).toContain('Message: Flaky Broker: Expired');
  });

  it('tells refused signals: invalid, no credits left (after exhausted), hook deactivated', async () => {
    const { trader, receiver, webhooks, mail } = await desk('refused');
    await postSignal(t, trader.shortKey, { symbol: 'AAPL', action: 'hold', quantity: 1 });
    const [invalid] = await webhooks('signal.refused');
    expect(invalid?.payload?.data).toMatchObject({
      reason: 'invalid',
      hook: { key: trader.hook.key, name: 'Main' },
      accountId: 'F-1',
    });
    expect(String(invalid?.payload?.data.message)).toMatch(/^action: /);

    // 3 credits left: three orders exhaust them, the next is refused.
    for (const quantity of [3, 4, 5])
      expect((await postSignal(t, trader.shortKey, { ...BUY, quantity })).statusCode).toBe(201);
    const [exhausted] = await webhooks('credits.exhausted');
    expect(exhausted?.payload?.data).toEqual({ balance: 0, threshold: 2 });
    expect((await mail('You have no signals left')).text).toContain('Signals left: 0');
    const none = await postSignal(t, trader.shortKey, { ...BUY, quantity: 6 });
    expect(none.json().message).toBe('No signals left: top up in Account & Billing');
    const refusals = await webhooks('signal.refused', 2);
    expect(refusals[1]?.payload?.data).toMatchObject({
      reason: 'no_credits',
      message: 'No signals left: top up in Account & Billing',
    });

    const pool = t.services.db.$client;
    await pool.query(`update hooks set is_active = false, deactivated_reason = 'by test' where id = $1`, [
      trader.hook.id,
    ]);
    await pool.query(`select pg_notify('hook_changed', $1)`, [trader.shortKey]);
    // Until the cache heard of it, the hook would still take the signal (a repeat of the first).
    await eventually(async () => (await t.app.signalRuntime.hooks.get(trader.shortKey))?.isActive === false);
    // Refusals before the body is read are told once a minute per hook, however many arrive.
    for (let i = 0; i < 5; i++) await postSignal(t, trader.shortKey, BUY);
    const all = await webhooks('signal.refused', 3);
    expect(all[2]?.payload?.data).toMatchObject({
      reason: 'hook_inactive',
      message: 'Webhook is deactivated: by test',
    });
    expect((await mail('Signal refused on webhook "Main"')).subject).toContain('Signal refused');
    await t.app.signalRuntime.writer.flush();
    await new Promise((r) => setTimeout(r, 300));
    expect(receiver.received.filter((r) => r.payload?.type === 'signal.refused')).toHaveLength(3);
  });

  it("finds a mail's activity entry by its signal id (the link's page), among all the others", async () => {
    const { trader, webhooks, refused } = await desk('activity');
    await t.services.db.$client.query('update accounts set credits = 10 where user_id = $1', [trader.userId]);
    // The signal looked for, then others around it: orders, a rejection, refusals.
    expect((await postSignal(t, trader.shortKey, BUY)).statusCode).toBe(201);
    const [placed] = await webhooks('order.placed');
    const signalId = String(placed?.payload?.data.signalId);
    for (const quantity of [2, 3]) await postSignal(t, trader.shortKey, { ...BUY, quantity });
    await refused({ ...BUY, quantity: 4 });
    for (let i = 0; i < 2; i++) await postSignal(t, trader.shortKey, { symbol: 'AAPL', action: 'hold', quantity: 1 });
    await t.app.signalRuntime.writer.flush();
    const ACTIONS = 'query($s: String) { actions(signalId: $s) { code metadata } }';
    const all = await gql<{ actions: unknown[] }>(t, trader.headers, ACTIONS, {});
    expect(all.data?.actions.length).toBeGreaterThan(5);
    const entries = await gql<{ actions: Array<{ code: string; metadata: string }> }>(t, trader.headers, ACTIONS, {
      s: signalId,
    });
    expect(entries.data?.actions).toHaveLength(1);
    expect(JSON.parse(entries.data?.actions[0]?.metadata ?? '{}')).toMatchObject({
      signalId,
      response: { id: placed?.payload?.data.brokerOrderId },
    });
  });

  it('delivers every event once per destination, all signatures verified', async () => {
    const { trader, receiver, webhooks, refused } = await desk('once');
    // Placed and filled (the low mark), rejected, refused as invalid, then exhausted and refused.
    await postSignal(t, trader.shortKey, BUY);
    await refused({ ...BUY, quantity: 2 });
    // Its credit comes back with the outcome's write (which tells the rejection), after the
    // answer: the next orders count on it.
    await webhooks('order.rejected');
    await postSignal(t, trader.shortKey, { symbol: 'AAPL', action: 'hold', quantity: 1 });
    for (const quantity of [3, 4, 5]) await postSignal(t, trader.shortKey, { ...BUY, quantity });
    await webhooks('credits.exhausted');
    await webhooks('signal.refused', 2);
    await t.app.signalRuntime.writer.flush();
    const pool = t.services.db.$client;
    const undelivered = async () =>
      (
        await pool.query<{ n: number }>(
          `select count(*)::int as n from notification_deliveries d join notification_events e on e.id = d.event_id
          where e.user_id = $1 and d.status <> 'delivered'`,
          [trader.userId],
        )
      ).rows[0]?.n;
    await eventually(async () => (await undelivered()) === 0, 10_000);
    const ids = receiver.received.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(receiver.received.every((r) => r.verifyError === null)).toBe(true);
    const { rows } = await pool.query<{ type: string; n: number }>(
      `select e.type, count(*)::int as n from notification_deliveries d join notification_events e on e.id = d.event_id
      where e.user_id = $1 group by e.type order by e.type`,
      [trader.userId],
    );
    // One webhook and one mail per event.
    expect(rows).toEqual([
      { type: 'credits.exhausted', n: 2 },
      { type: 'credits.low', n: 2 },
      { type: 'order.filled', n: 6 },
      { type: 'order.placed', n: 6 },
      { type: 'order.rejected', n: 2 },
      { type: 'signal.refused', n: 4 },
    ]);
    expect(receiver.received).toHaveLength(11);
  });

  it('tells a connection expiring and deactivated, by webhook and mail', async () => {
    const { trader, webhooks, mail } = await desk('expiring');
    const pool = t.services.db.$client;
    const { rows } = await pool.query<{ id: string }>('select id from connectors where key = $1', [
      trader.connector.key,
    ]);
    const connectorId = Number(rows[0]?.id);
    await pool.query(`update connectors set expires_at = now() + interval '5 days' where id = $1`, [connectorId]);
    await t.app.notificationWorker.maintain();
    const [expiring] = await webhooks('connector.expiring');
    expect(expiring?.verifyError).toBeNull();
    expect(expiring?.payload?.data).toMatchObject({
      connectorKey: trader.connector.key,
      providerName: 'flaky',
      accountIds: ['F-1'],
    });
    expect((await mail('Your Flaky Broker connection expires on')).text).toContain(
      'https://router.example/me/connector/flaky',
    );
    expect(await deactivateConnector(t.services, connectorId, 'Flaky Broker: token revoked')).toBe(true);
    const [deactivated] = await webhooks('connector.deactivated');
    expect(deactivated?.payload?.data).toMatchObject({ reason: 'Flaky Broker: token revoked', accountIds: ['F-1'] });
    expect((await mail('Your Flaky Broker connection was deactivated')).text).toContain('Flaky Broker: token revoked');
  });

  it('writes no event for a user without settings', async () => {
    const other = await setupTrader(t, 'quiet@example.com', { provider: 'flaky', credits: 4 });
    await postSignal(t, other.shortKey, BUY);
    await postSignal(t, other.shortKey, { symbol: 'AAPL', action: 'hold', quantity: 1 });
    await t.app.signalRuntime.writer.flush();
    await new Promise((r) => setTimeout(r, 200));
    const { rows } = await t.services.db.$client.query('select 1 from notification_events where user_id = $1', [
      other.userId,
    ]);
    expect(rows).toHaveLength(0);
  });
});
