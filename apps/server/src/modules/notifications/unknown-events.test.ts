// An order whose outcome the broker can neither confirm nor deny (its answer lost, and no lookup
// finds it) stays 'unknown' for good: its settings are told once, as order.placed with status
// 'unknown' and what to do, since the order may be live at the broker and nothing else will
// ever be sent about it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticateAsUserId, startTestApp, type TestApp } from '../../../test/app.ts';
import { createSetting } from '../../../test/notification-fixtures.ts';
import { eventually, FLAKY_TITLE, flakyBroker, postSignal, setupTrader } from '../../../test/signal-fixtures.ts';
import { type SmtpSink, startSmtpSink } from '../../../test/smtp-sink.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../../test/webhook-receiver.ts';

let t: TestApp;
let sink: SmtpSink;
let receiver: WebhookReceiver;
const blind = flakyBroker({ name: 'flaky_blind', knows: 'nothing' });

beforeAll(async () => {
  sink = await startSmtpSink();
  receiver = await startWebhookReceiver();
  t = await startTestApp({
    env: { SMTP_URL: sink.url, PUBLIC_URL: 'https://router.example', ALLOW_PRIVATE_WEBHOOKS: 'true' },
    authenticate: authenticateAsUserId,
    brokers: [blind.broker],
    notifications: { pollMs: 25 },
  });
});
afterAll(async () => {
  await t.close();
  await receiver.close();
  await sink.close();
});

const UNCONFIRMED = `${FLAKY_TITLE}: the order's outcome could not be confirmed; check your ${FLAKY_TITLE} account`;

describe('an order whose outcome stays unknown', () => {
  it('is told once, by webhook and mail, with what to do', async () => {
    const trader = await setupTrader(t, 'unknown-told@example.com', { provider: 'flaky_blind' });
    const hook = await createSetting(t, trader.headers, trader.connector.key, trader.accountId, 1, {
      url: `${receiver.url}/in`,
    });
    receiver.secret = hook.secret ?? '';
    await createSetting(t, trader.headers, trader.connector.key, trader.accountId, 2, { email: 'unknown@example.com' });
    blind.mode = 'unknown';
    const signalId = (await postSignal(t, trader.shortKey, { symbol: 'AAPL', action: 'buy', quantity: 1 })).json()
      .id as string;
    blind.mode = 'fill';
    const status = async () =>
      (await t.database.pool.query('select status from signals where id = $1', [signalId])).rows[0]?.status;
    await eventually(async () => (await status()) === 'unknown');
    await t.app.signalRuntime.reconcile(0);
    await t.app.signalRuntime.reconcile(0);

    await eventually(async () => receiver.received.some((r) => r.payload?.type === 'order.placed'));
    const told = receiver.received.filter((r) => r.payload?.data.signalId === signalId);
    expect(told.map((r) => r.payload?.type)).toEqual(['order.placed']);
    expect(told[0]?.verifyError).toBeNull();
    expect(told[0]?.payload?.data).toMatchObject({ status: 'unknown', message: UNCONFIRMED });
    await eventually(async () => sink.mails.some((m) => m.to.includes('unknown@example.com')));
    const mail = sink.mails.find((m) => m.to.includes('unknown@example.com'));
    expect(mail?.subject.startsWith(`Order outcome unknown: BUY 1 AAPL on ${FLAKY_TITLE}`)).toBe(true);
    expect(mail?.text).toContain(UNCONFIRMED);
    expect(await status()).toBe('unknown');
  });
});
