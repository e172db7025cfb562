// The signal path's events end to end: signals sent to the hook become order.placed,
// order.filled, order.rejected, signal.refused, credits.low and credits.exhausted, each
// delivered once as a mail to a real SMTP server and once as a signed webhook that a local
// receiver verifies with the `standardwebhooks` package. A user without settings gets nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticateAsUserId, startTestApp, type TestApp } from '../../../test/app.ts';
import { gql } from '../../../test/connector-fixtures.ts';
import { createSetting } from '../../../test/notification-fixtures.ts';
import { eventually, flakyBroker, postSignal, setupTrader } from '../../../test/signal-fixtures.ts';
import { type SmtpSink, startSmtpSink } from '../../../test/smtp-sink.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../../test/webhook-receiver.ts';

let t: TestApp;
let sink: SmtpSink;
let receiver: WebhookReceiver;
const flaky = flakyBroker();
let trader: Awaited<ReturnType<typeof setupTrader>>;
const EMAIL = 'desk@example.com';

beforeAll(async () => {
  sink = await startSmtpSink();
  receiver = await startWebhookReceiver();
  t = await startTestApp({
    env: { SMTP_URL: sink.url, PUBLIC_URL: 'https://router.example', ALLOW_PRIVATE_WEBHOOKS: 'true' },
    authenticate: authenticateAsUserId,
    brokers: [flaky.broker],
    notifications: { pollMs: 25 },
  });
  // 4 credits: the first signal reaches the low mark (3), the fourth exhausts them.
  trader = await setupTrader(t, 'trader@example.com', { provider: 'flaky', credits: 4 });
  const hook = await createSetting(t, trader.headers, trader.connector.key, 'F-1', 1, { url: `${receiver.url}/in` });
  receiver.secret = hook.secret ?? '';
  await createSetting(t, trader.headers, trader.connector.key, 'F-1', 2, { email: EMAIL });
});
afterAll(async () => {
  await t.close();
  await receiver.close();
  await sink.close();
});

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
    const found = sink.mails.find((m) => m.to.includes(EMAIL) && m.subject.startsWith(subject));
    if (found) return found;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no mail "${subject}"`);
}

const BUY = { symbol: 'AAPL', action: 'buy', quantity: 1 };

describe('notifications of the signal path', () => {
  it('tells an order placed and filled, and the credits reaching the low mark', async () => {
    const res = await postSignal(t, trader.shortKey, BUY);
    expect(res.statusCode).toBe(201);
    const signalId = String((await t.services.db.$client.query('select id from signals')).rows[0]?.id);
    const [placed] = await webhooks('order.placed');
    expect(placed?.verifyError).toBeNull();
    expect(placed?.payload?.data).toMatchObject({
      signalId,
      hook: { key: trader.hook.key, shortKey: trader.shortKey, name: 'Main' },
      connectorKey: trader.connector.key,
      providerName: 'flaky',
      accountId: 'F-1',
      order: { symbol: 'AAPL', action: 'buy', quantity: 1 },
      status: 'filled',
      brokerOrderId: 'FB-1',
      price: 10,
    });
    const [filled] = await webhooks('order.filled');
    expect(filled?.id).not.toBe(placed?.id);
    expect(filled?.payload?.data).toMatchObject({ signalId, status: 'filled', price: 10 });
    const [low] = await webhooks('credits.low');
    expect(low?.payload?.data).toEqual({ balance: 3, threshold: 3 });

    const placedMail = await mail('Order placed: BUY 1 AAPL on Flaky Broker');
    expect(placedMail.text).toContain(`https://router.example/me?signal=${signalId}`);

    expect((await mail('Order filled: BUY 1 AAPL at 10 on Flaky Broker')).text).toContain('Average price: 10');
    expect((await mail('You have 3 signals left')).text).toContain('Low at: 3');
  });

  it("tells a rejected order with the broker's message", async () => {
    flaky.mode = 'refuse';
    const res = await postSignal(t, trader.shortKey, { ...BUY, quantity: 2 });
    flaky.mode = 'fill';
    expect(res.json()).toEqual({ status: 'ExecutionError', message: 'Flaky Broker: insufficient buying power' });
    const [rejected] = await webhooks('order.rejected');
    expect(rejected?.verifyError).toBeNull();
    expect(rejected?.payload?.data).toMatchObject({
      status: 'rejected',
      message: 'Flaky Broker: insufficient buying power',
      order: { quantity: 2 },
    });
    const text = (await mail('Order rejected: BUY 2 AAPL on Flaky Broker')).text;
    expect(text).toContain('Message: Flaky Broker: insufficient buying power');
  });

  it('tells refused signals: invalid, no credits left (after exhausted), hook deactivated', async () => {
    await postSignal(t, trader.shortKey, { symbol: 'AAPL', action: 'hold', quantity: 1 });
    const [invalid] = await webhooks('signal.refused');
    expect(invalid?.payload?.data).toMatchObject({
      reason: 'invalid',
      hook: { shortKey: trader.shortKey },
      accountId: 'F-1',
    });
    expect(String(invalid?.payload?.data.message)).toMatch(/^action: /);

    // 3 credits left: three more orders exhaust them, the next is refused.
    for (const quantity of [3, 4, 5])
      expect((await postSignal(t, trader.shortKey, { ...BUY, quantity })).statusCode).toBe(201);
    const [exhausted] = await webhooks('credits.exhausted');
    expect(exhausted?.payload?.data).toEqual({ balance: 0, threshold: 3 });
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
    await pool.query('update hooks set is_active = true where id = $1', [trader.hook.id]);
    await pool.query(`select pg_notify('hook_changed', $1)`, [trader.shortKey]);
  });

  it("finds a mail's activity entry by its signal id (the link's page), among all the others", async () => {
    const signalId = String(receiver.received.find((r) => r.payload?.type === 'order.placed')?.payload?.data.signalId);
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
      response: { id: 'FB-1' },
    });
  });

  it('delivers every event once per destination, all signatures verified', async () => {
    const ids = receiver.received.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(receiver.received.every((r) => r.verifyError === null)).toBe(true);
    const { rows } = await t.services.db.$client.query<{ type: string; n: number }>(
      `select e.type, count(*)::int as n from notification_deliveries d join notification_events e on e.id = d.event_id
      group by e.type order by e.type`,
    );
    // One webhook and one mail per event.
    expect(rows).toEqual([
      { type: 'credits.exhausted', n: 2 },
      { type: 'credits.low', n: 2 },
      { type: 'order.filled', n: 8 },
      { type: 'order.placed', n: 8 },
      { type: 'order.rejected', n: 2 },
      { type: 'signal.refused', n: 6 },
    ]);
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
