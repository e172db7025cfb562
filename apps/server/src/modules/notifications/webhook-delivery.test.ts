// Signed webhooks end to end against a local receiver that verifies them with the
// `standardwebhooks` package: the secret shown once, failures, time-outs and recovery with the
// same webhook-id, giving up, re-sending, disabling after 3 days, and secret rotation.
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { authenticateAsUserId, insertTestUser, startTestApp, type TestApp } from '../../../test/app.ts';
import { type ConnectorAnswer, connect, type GraphQLAnswer, gql } from '../../../test/connector-fixtures.ts';
import { fakeKeyBroker } from '../../../test/fake-brokers.ts';
import { createSetting, deliveries, eventually, sendTest } from '../../../test/notification-fixtures.ts';
import { type SmtpSink, startSmtpSink } from '../../../test/smtp-sink.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../../test/webhook-receiver.ts';
import { emitEvents } from './events.ts';
import { sealWebhookSecret } from './secret.ts';

let t: TestApp;
let sink: SmtpSink;
let receiver: WebhookReceiver;
let alice: Record<string, string>;
let aliceId: number;
let live: ConnectorAnswer;
let liveId: number;
let settingKey: string;
let aliceEmail: string;
const receivers: WebhookReceiver[] = [];
beforeAll(async () => {
  sink = await startSmtpSink();
  t = await startTestApp({
    env: { SMTP_URL: sink.url, ALLOW_PRIVATE_WEBHOOKS: 'true', NOTIFICATION_RETRY_SCHEDULE: '100ms,100ms,100ms' },
    authenticate: authenticateAsUserId,
    brokers: [fakeKeyBroker().broker],
    // The deadline only the 'hang' answers reach: 300 ms was reached by ordinary answers on a
    // loaded machine (the webhook's timer starts before the host is resolved), turning a 500
    // into 'Timed out' and a success into one more attempt ("gives up after the schedule").
    notifications: { pollMs: 25, webhookTimeoutMs: 2_000 },
  });
});
afterAll(async () => {
  await t.close();
  for (const r of receivers) await r.close();
  await sink.close();
});

// Every case has a user of its own, with a Key Fake connection and a webhook setting to a
// receiver of its own: no case sees another's deliveries, secret, failures or disabled setting.
beforeEach(async () => {
  receiver = await startWebhookReceiver();
  receivers.push(receiver);
  aliceEmail = `alice-${receivers.length}@example.com`;
  ({ id: aliceId, headers: alice } = await insertTestUser(t.services, aliceEmail));
  live = await connect(t, alice, 'keyfake', ['key', 'sekret-ok']);
  const { rows } = await t.services.db.$client.query<{ id: string }>('select id from connectors where key = $1', [
    live.key,
  ]);
  liveId = Number(rows[0]?.id);
  const setting = await createSetting(t, alice, live.key, 'L-1', 1, { url: `${receiver.url}/hooks` });
  settingKey = setting.key;
  receiver.secret = setting.secret ?? '';
});

const log = () => deliveries(t, alice, live.key, 'L-1');
const received = (eventId: string) =>
  eventually(
    async () => receiver.received.find((r) => r.id === eventId),
    (r) => r !== undefined,
  );
const rejected = (signalId: string) =>
  emitEvents(t.services.db, [
    {
      userId: aliceId,
      connectorId: liveId,
      accountId: 'L-1',
      type: 'order.rejected',
      data: {
        signalId,
        hook: { key: 'h1', name: 'Swing' },
        connectorKey: live.key,
        providerName: 'keyfake',
        accountId: 'L-1',
        order: { symbol: 'AAPL', action: 'buy', quantity: 1 },
        status: 'rejected',
        brokerOrderId: null,
        price: null,
        message: 'Key Fake: market closed',
      },
    },
  ]);

/** A received message as a receiver holding `secret` verifies it (throws when it does not). */
const verifiedWith = (secret: string, request: Awaited<ReturnType<typeof received>>) =>
  new Webhook(secret).verify(request?.body ?? '', {
    'webhook-id': request?.id ?? '',
    'webhook-timestamp': request?.timestamp ?? '',
    'webhook-signature': request?.signature ?? '',
  });

describe('signed webhooks', () => {
  it('sends a test notification signed with the secret answered once (Standard Webhooks)', async () => {
    expect(receiver.secret).toMatch(/^whsec_/);
    const since = receiver.received.length;
    const queued = await sendTest(t, alice, settingKey);
    const [request] = await receiver.waitFor(since);
    expect(request?.verifyError).toBeNull();
    expect(request?.id).toBe(queued.eventId);
    expect(request?.id).toMatch(/^msg_[0-9a-f]{32}$/);
    expect(request?.signature).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(Math.abs(Number(request?.timestamp) - Date.now() / 1000)).toBeLessThan(300);
    expect(request?.payload).toMatchObject({
      type: 'notification.test',
      data: { accountId: 'L-1', providerName: 'keyfake', connectorKey: live.key },
    });
    expect(Date.parse(request?.payload?.timestamp ?? '')).not.toBeNaN();
    const [entry] = await eventually(log, (rows) => rows[0]?.status === 'delivered');
    expect(entry).toMatchObject({ id: queued.id, attempts: 1, responseCode: 200, type: 1 });
    // A receiver holding another secret refuses the same request.
    const other = new Webhook(`whsec_${Buffer.alloc(32, 1).toString('base64')}`);
    expect(() =>
      other.verify(request?.body ?? '', {
        'webhook-id': request?.id ?? '',
        'webhook-timestamp': request?.timestamp ?? '',
        'webhook-signature': request?.signature ?? '',
      }),
    ).toThrow('No matching signature found');
  });

  it('retries a failing and then hanging receiver with the same webhook-id until it recovers', async () => {
    receiver.answer('fail', 'hang', 'ok');
    const since = receiver.received.length;
    await rejected('sig-retry');
    const attempts = await receiver.waitFor(since, 3);
    expect(new Set(attempts.map((a) => a.id)).size).toBe(1);
    expect(attempts.every((a) => a.verifyError === null && a.payload?.type === 'order.rejected')).toBe(true);
    expect(attempts[0]?.payload?.data).toMatchObject({ signalId: 'sig-retry', message: 'Key Fake: market closed' });
    const rows = await eventually(log, (r) => r.some((d) => d.eventId === attempts[0]?.id && d.status === 'delivered'));
    expect(rows.find((d) => d.eventId === attempts[0]?.id)).toMatchObject({
      status: 'delivered',
      attempts: 3,
      responseCode: 200,
      error: null,
    });
    // The setting's health is written just after the round's results (its own statement).
    const health = await eventually(
      async () =>
        (await t.services.db.$client.query('select failing_since from notifications where key = $1', [settingKey]))
          .rows,
      (rows) => rows[0]?.failing_since === null,
    );
    expect(health[0]?.failing_since).toBeNull();
  });

  it('retries a delivery whose secret this server cannot open (another SECRETS_KEY), instead of giving it up at once', async () => {
    const pool = t.services.db.$client;
    const { rows } = await pool.query<{ keyId: string }>(
      'select secret_key_id as "keyId" from notifications where key = $1',
      [settingKey],
    );
    // Sealed under a key this server does not have (an instance started with the wrong SECRETS_KEY).
    await pool.query(`update notifications set secret_key_id = 'deadbeef' where key = $1`, [settingKey]);
    const queued = await sendTest(t, alice, settingKey);
    const tried = await eventually(log, (r) =>
      r.some((d) => d.id === queued.id && (d.status === 'failed' || d.attempts >= 2)),
    );
    expect(tried.find((d) => d.id === queued.id)?.error).toMatch(/cannot be opened/);
    expect(tried.find((d) => d.id === queued.id)?.attempts).toBeGreaterThanOrEqual(2);
    // The operator puts the right key back: the event still arrives, signed with the setting's secret.
    await pool.query('update notifications set secret_key_id = $2 where key = $1', [settingKey, rows[0]?.keyId]);
    await gql(t, alice, `mutation($id: String!) { notificationDeliveryResend(id: $id) { id } }`, { id: queued.id });
    expect((await received(queued.eventId))?.verifyError).toBeNull();
  });

  it("does not count a secret this server cannot open against the receiver's health (no streak, no disable)", async () => {
    const pool = t.services.db.$client;
    await pool.query(`update notifications set secret_key_id = 'deadbeef' where key = $1`, [settingKey]);
    const since = receiver.received.length;
    const queued = await sendTest(t, alice, settingKey);
    const tried = await eventually(log, (r) => r.some((d) => d.id === queued.id && d.status === 'failed'));
    expect(tried.find((d) => d.id === queued.id)).toMatchObject({ attempts: 4, responseCode: null });
    expect(receiver.received.length).toBe(since);
    // The receiver was never called: its endpoint starts no failure streak, which would disable
    // the setting after 3 days and mail the user to fix a receiver that is fine.
    const { rows } = await pool.query(
      'select failing_since, last_failed_at, is_enabled from notifications where key = $1',
      [settingKey],
    );
    expect(rows).toEqual([{ failing_since: null, last_failed_at: null, is_enabled: true }]);
  });

  it("does not count a setting without a signing secret against the receiver's health (no streak, no disable)", async () => {
    const pool = t.services.db.$client;
    await pool.query('update notifications set secret = null, secret_key_id = null where key = $1', [settingKey]);
    const since = receiver.received.length;
    const queued = await sendTest(t, alice, settingKey);
    const tried = await eventually(log, (r) => r.some((d) => d.id === queued.id && d.status === 'failed'));
    expect(tried.find((d) => d.id === queued.id)).toMatchObject({
      attempts: 1,
      responseCode: null,
      error: 'No signing secret: rotate the secret',
    });
    expect(receiver.received.length).toBe(since);
    const { rows } = await pool.query(
      'select failing_since, last_failed_at, is_enabled from notifications where key = $1',
      [settingKey],
    );
    expect(rows).toEqual([{ failing_since: null, last_failed_at: null, is_enabled: true }]);
  });

  it('gives up after the schedule, and sends the same event again on request', async () => {
    receiver.answer('fail');
    const since = receiver.received.length;
    await rejected('sig-give-up');
    const [first] = await receiver.waitFor(since);
    const failed = await eventually(log, (r) => r.some((d) => d.eventId === first?.id && d.status === 'failed'));
    const entry = failed.find((d) => d.eventId === first?.id);
    expect(entry).toMatchObject({ attempts: 4, responseCode: 500, error: 'HTTP 500' });
    expect(receiver.received.slice(since).filter((r) => r.id === first?.id)).toHaveLength(4);

    receiver.answer('ok');
    const RESEND = `mutation($id: String!) { notificationDeliveryResend(id: $id) { id status } }`;
    expect((await gql(t, alice, RESEND, { id: entry?.id })).data).toEqual({
      notificationDeliveryResend: { id: entry?.id, status: 'pending' },
    });
    const again = await eventually(log, (r) => r.some((d) => d.id === entry?.id && d.status === 'delivered'));
    expect(again.find((d) => d.id === entry?.id)).toMatchObject({ attempts: 5, responseCode: 200 });
    expect(receiver.received.at(-1)).toMatchObject({ id: first?.id, verifyError: null });
    const { headers: bob } = await insertTestUser(t.services, 'bob@example.com');
    expect((await gql(t, bob, RESEND, { id: entry?.id })).error?.message).toBe('Delivery not found');
  });

  it("delivers an event two webhook settings of one URL both chose to each, signed with that setting's own secret", async () => {
    const paper = await connect(t, alice, 'paper');
    const paperAccount = (JSON.parse(paper.accounts) as Array<{ id: string }>)[0]?.id ?? '';
    const other = await createSetting(t, alice, paper.key, paperAccount, 1, { url: `${receiver.url}/hooks` });
    const since = receiver.received.length;
    // An event of the user, not of one account: both settings chose it.
    expect(
      await emitEvents(t.services.db, [{ userId: aliceId, type: 'credits.low', data: { balance: 2, threshold: 5 } }]),
    ).toBe(2);
    const got = await receiver.waitFor(since, 2);
    // The same event (one webhook-id), each setting's delivery signed with its own secret.
    expect(new Set(got.map((r) => r.id)).size).toBe(1);
    const verifying = (secret: string) =>
      got.filter((r) => {
        try {
          verifiedWith(secret, r);
          return true;
        } catch {
          return false;
        }
      });
    expect(verifying(receiver.secret)).toHaveLength(1);
    expect(verifying(other.secret ?? '')).toHaveLength(1);
    const { rows } = await t.services.db.$client.query<{ key: string }>(
      `select n.key from notification_deliveries d join notifications n on n.id = d.notification_id
      where d.event_id = $1 order by n.key`,
      [got[0]?.id],
    );
    expect(rows.map((r) => r.key)).toEqual([settingKey, other.key].sort());
  });

  it('shows a re-sent delivery first in the log, as the newest', async () => {
    receiver.answer('ok');
    const since = receiver.received.length;
    for (const signalId of ['sig-log-old', 'sig-log-new-1', 'sig-log-new-2']) await rejected(signalId);
    await receiver.waitFor(since, 3);
    const before = await eventually(log, (r) => r.filter((d) => d.status === 'delivered').length === 3);
    const oldest = before.at(-1);
    const RESEND = `mutation($id: String!) { notificationDeliveryResend(id: $id) { id status } }`;
    await gql(t, alice, RESEND, { id: oldest?.id });
    const after = await eventually(log, (r) => r.some((d) => d.id === oldest?.id && d.attempts === 2));
    expect(after.map((d) => d.id)).toEqual([oldest?.id, ...before.slice(0, -1).map((d) => d.id)]);
    expect(after[0]).toMatchObject({ eventId: oldest?.eventId, status: 'delivered', attempts: 2 });
  });

  it('disables a setting whose endpoint failed for 3 days, and tells its user by email', async () => {
    await t.services.db.$client.query(
      `update notifications set failing_since = now() - interval '3 days 1 minute',
        last_failed_at = now() - interval '1 hour' where key = $1`,
      [settingKey],
    );
    receiver.answer('fail');
    const mails = sink.mails.length;
    await rejected('sig-disable');
    const notice = await sink.waitFor(aliceEmail, mails);
    expect(notice.subject).toBe('A notification webhook was disabled · Signal Router');
    expect(notice.text).toContain(`Webhook URL: ${receiver.url}/hooks`);
    const ONE = `query($k: String!) { notification(key: $k) { isEnabled disabledReason } }`;
    expect((await gql(t, alice, ONE, { k: settingKey })).data).toEqual({
      notification: { isEnabled: false, disabledReason: 'Deliveries failed for 3 days' },
    });
    const entry = (await log()).find((d) => d.status === 'failed' && d.error === 'Deliveries failed for 3 days');
    expect(entry?.attempts).toBe(1);
    // Disabled settings get no new events; saving the setting enables it again.
    expect(await rejected('sig-while-disabled')).toBe(0);
    const UPDATE = `mutation($k: String!, $m: String!) { notificationUpdate(key: $k, metadata: $m) { isEnabled disabledReason } }`;
    const saved = await gql(t, alice, UPDATE, { k: settingKey, m: JSON.stringify({ url: `${receiver.url}/hooks` }) });
    expect(saved.data).toEqual({ notificationUpdate: { isEnabled: true, disabledReason: null } });
    expect(await rejected('sig-enabled-again')).toBe(1);
  });

  it("tries a re-send of a disabled setting's delivery once, not through the retry schedule", async () => {
    await t.services.db.$client.query(
      `update notifications set failing_since = now() - interval '3 days 1 minute',
        last_failed_at = now() - interval '1 hour' where key = $1`,
      [settingKey],
    );
    receiver.answer('fail');
    const mails = sink.mails.length;
    await rejected('sig-disabled-resend');
    await sink.waitFor(aliceEmail, mails);
    const entry = (await log()).find((d) => d.status === 'failed' && d.error === 'Deliveries failed for 3 days');
    expect(entry?.attempts).toBe(1);
    const since = receiver.received.length;
    const RESEND = `mutation($id: String!) { notificationDeliveryResend(id: $id) { id status } }`;
    expect((await gql(t, alice, RESEND, { id: entry?.id })).data).toEqual({
      notificationDeliveryResend: { id: entry?.id, status: 'pending' },
    });
    const after = await eventually(log, (r) => r.some((d) => d.id === entry?.id && d.attempts >= 2));
    // Given up after that one attempt: failed, nothing more due.
    expect(after.find((d) => d.id === entry?.id)).toMatchObject({ status: 'failed', attempts: 2, responseCode: 500 });
    expect(receiver.received.slice(since).map((r) => r.id)).toEqual([entry?.eventId]);
  });

  it('signs with the old and the new secret for a day after a rotation', async () => {
    const ROTATE = `mutation($k: String!) { notificationSecretRotate(key: $k) { secret } }`;
    const rotated = await gql<{ notificationSecretRotate: { secret: string } }>(t, alice, ROTATE, { k: settingKey });
    const previous = receiver.secret;
    const next = rotated.data?.notificationSecretRotate.secret ?? '';
    const request = await received((await sendTest(t, alice, settingKey)).eventId);
    expect(request?.signature.split(' ')).toHaveLength(2);
    for (const secret of [previous, next]) {
      expect(verifiedWith(secret, request)).toMatchObject({ type: 'notification.test' });
    }
    await t.services.db.$client.query(
      `update notifications set secret_rotated_at = now() - interval '25 hours' where key = $1`,
      [settingKey],
    );
    const afterOverlap = await received((await sendTest(t, alice, settingKey)).eventId);
    expect(afterOverlap?.signature.split(' ')).toHaveLength(1);
  });

  it('keeps every secret it answered when two rotations run at once (a double click)', async () => {
    const ROTATE = `mutation($k: String!) { notificationSecretRotate(key: $k) { secret } }`;
    // The first rotation has stored its secret and not yet committed, as it would be while the
    // second one starts: the second must build on it, not on the secret before it.
    const first = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
    const sealed = sealWebhookSecret(
      t.services.secretsKey,
      { connectorId: liveId, accountId: 'L-1', type: 1 },
      first,
      receiver.secret,
    );
    const client = await t.services.db.$client.connect();
    let second: Promise<GraphQLAnswer<{ notificationSecretRotate: { secret: string } }>>;
    try {
      await client.query('begin');
      await client.query(
        'update notifications set secret = $2, secret_key_id = $3, secret_rotated_at = now() where key = $1',
        [settingKey, sealed.data, sealed.keyId],
      );
      second = gql<{ notificationSecretRotate: { secret: string } }>(t, alice, ROTATE, { k: settingKey });
      // It waits for the first one's lock (wherever it takes it) before the first one commits.
      await eventually(
        async () =>
          (
            await t.services.db.$client.query(
              `select 1 from pg_locks l join pg_class c on c.oid = l.relation
              where not l.granted and c.relname = 'notifications'
              union all select 1 from pg_locks where not granted and locktype = 'transactionid'`,
            )
          ).rowCount ?? 0,
        (waiting) => waiting > 0,
      );
      await client.query('commit');
    } finally {
      client.release();
    }
    const secrets = [first, (await second).data?.notificationSecretRotate.secret ?? ''];
    // Whichever answer the page showed, a receiver holding it verifies the next message.
    const request = await received((await sendTest(t, alice, settingKey)).eventId);
    expect(request?.signature.split(' ')).toHaveLength(2);
    for (const secret of secrets) {
      expect(verifiedWith(secret, request)).toMatchObject({ type: 'notification.test' });
    }
  });
});

describe('webhook URLs with ALLOW_PRIVATE_WEBHOOKS on', () => {
  const save = (url: string) =>
    gql(t, alice, `mutation($k: String!, $m: String!) { notificationUpdate(key: $k, metadata: $m) { key } }`, {
      k: settingKey,
      m: JSON.stringify({ url }),
    });

  it('accepts private hosts, and plain http only to localhost, 127.0.0.1 and [::1]', async () => {
    for (const url of [
      'http://localhost:8080/x',
      'http://127.0.0.1:8080/x',
      'http://[::1]:8080/x',
      'https://10.0.0.5/x',
    ]) {
      expect((await save(url)).error).toBeUndefined();
    }
    for (const url of ['http://10.0.0.5/x', 'http://127.0.0.2/x', 'http://hooks.example.com/x']) {
      expect((await save(url)).error?.message).toBe('Webhook URLs must use https');
    }
    await save(`${receiver.url}/hooks`);
  });
});
