// Without ALLOW_PRIVATE_WEBHOOKS, every delivery resolves the host again and refuses private
// addresses: a public-looking name that resolves to 127.0.0.1, and a loopback URL saved while
// the switch was on. The receiver never hears a thing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticateAsUserId, insertTestUser, startTestApp, type TestApp } from '../../../test/app.ts';
import { type ConnectorAnswer, connect } from '../../../test/connector-fixtures.ts';
import { fakeKeyBroker } from '../../../test/fake-brokers.ts';
import { createSetting, deliveries, eventually, sendTest } from '../../../test/notification-fixtures.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../../test/webhook-receiver.ts';
import { systemLookup } from './address-guard.ts';

let t: TestApp;
let receiver: WebhookReceiver;
let alice: Record<string, string>;
let live: ConnectorAnswer;
beforeAll(async () => {
  receiver = await startWebhookReceiver();
  t = await startTestApp({
    authenticate: authenticateAsUserId,
    brokers: [fakeKeyBroker().broker],
    notifications: {
      pollMs: 25,
      // A name that passes the check when saved, and whose DNS answer is a loopback address.
      lookup: async (host) =>
        host === 'rebind.example.com' ? [{ address: '127.0.0.1', family: 4 }] : systemLookup(host),
    },
  });
  ({ headers: alice } = await insertTestUser(t.services, 'alice@example.com'));
  live = await connect(t, alice, 'keyfake', ['key', 'sekret-ok']);
});
afterAll(async () => {
  await t.close();
  await receiver.close();
});

describe('private addresses without ALLOW_PRIVATE_WEBHOOKS', () => {
  it('refuses a name that resolves to 127.0.0.1, and a loopback URL saved earlier', async () => {
    const setting = await createSetting(t, alice, live.key, 'L-1', 1, {
      url: `https://rebind.example.com:${receiver.port}/hooks`,
    });
    const first = await sendTest(t, alice, setting.key);
    const refused = await eventually(
      () => deliveries(t, alice, live.key, 'L-1'),
      (rows) => rows.some((d) => d.id === first.id && d.attempts === 1),
    );
    expect(refused.find((d) => d.id === first.id)).toMatchObject({
      status: 'pending',
      responseCode: null,
      error: 'Refused: 127.0.0.1 is a private or reserved address',
    });

    // Saved while the switch was on (or written by hand): the delivery still resolves and refuses.
    await t.services.db.$client.query(`update notifications set metadata = $2 where key = $1`, [
      setting.key,
      JSON.stringify({ url: `http://localhost:${receiver.port}/hooks` }),
    ]);
    const second = await sendTest(t, alice, setting.key);
    const rows = await eventually(
      () => deliveries(t, alice, live.key, 'L-1'),
      (all) => all.some((d) => d.id === second.id && d.attempts === 1),
    );
    expect(rows.find((d) => d.id === second.id)?.error).toMatch(
      /^Refused: (127\.0\.0\.1|::1) is a private or reserved address$/,
    );
    expect(receiver.received).toHaveLength(0);
  });
});
