// The notification worker's own duties beside a round: stopping without working through the
// whole backlog, and telling users of disabled settings one by one; and an email setting on a
// server without SMTP_URL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticateAsUserId, startTestApp, type TestApp } from '../../../test/app.ts';
import { createSetting, eventually, sendTest } from '../../../test/notification-fixtures.ts';
import { setupTrader } from '../../../test/signal-fixtures.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../../test/webhook-receiver.ts';
import { claimDueDeliveries, recordDeliveryResults } from '../../db/repositories/notification-deliveries.repository.ts';
import type { Mail } from '../mail/mailer.ts';
import { NO_MAIL_SERVER, sendEmails } from './send-email.ts';
import { createNotificationWorker } from './worker.ts';

let t: TestApp;
let receiver: WebhookReceiver;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  // The app's own worker stays idle: each case drives a worker of its own.
  t = await startTestApp({
    env: { ALLOW_PRIVATE_WEBHOOKS: 'true' },
    authenticate: authenticateAsUserId,
    notifications: { pollMs: 600_000, maintenanceMs: 600_000 },
  });
});
afterAll(async () => {
  await t.close();
  await receiver.close();
});

/** Gives up the still-pending deliveries of `keys`, so later cases' rounds do not meet them. */
async function settle(keys: string[]): Promise<void> {
  await t.services.db.$client.query(
    `update notification_deliveries d set status = 'failed', next_attempt_at = null
    from notifications n where n.id = d.notification_id and n.key = any($1) and d.status = 'pending'`,
    [keys],
  );
}

describe('the notification worker', () => {
  it("sends one digest of a flood that two instances' rounds each claimed a share of", async () => {
    const trader = await setupTrader(t, 'two-instances@example.com');
    const setting = await createSetting(t, trader.headers, trader.connector.key, trader.accountId, 2, {
      email: 'two-instances@example.com',
    });
    try {
      for (let i = 0; i < 8; i++) await sendTest(t, trader.headers, setting.key);
      // A flood that waited a minute for its digest: due now, as one digest.
      await t.services.db.$client.query(
        `update notification_deliveries d set created_at = now() - interval '61 s', next_attempt_at = now() - interval '1 s'
         from notifications n where n.id = d.notification_id and n.key = $1`,
        [setting.key],
      );
      const sent: Mail[] = [];
      const mailer = {
        async send(mail: Mail) {
          sent.push(mail);
        },
      };
      const deps = (tx: Parameters<typeof sendEmails>[0]['db']) => ({
        db: tx,
        mailer,
        mail: { publicUrl: 'https://router.example', title: (name: string) => name },
        schedule: [50],
      });
      // Two instances' rounds: each claims a share of the flood before either has sent it.
      let aClaimed = () => {};
      let bClaimed = () => {};
      const aHas = new Promise<void>((resolve) => (aClaimed = resolve));
      const bHas = new Promise<void>((resolve) => (bClaimed = resolve));
      const instance = (first: boolean) =>
        t.services.db.transaction(async (tx) => {
          if (!first) await aHas;
          const claimed = await claimDueDeliveries(tx, 4, [], 2);
          (first ? aClaimed : bClaimed)();
          if (first) await bHas;
          await recordDeliveryResults(tx, await sendEmails(deps(tx), claimed));
        });
      await Promise.all([instance(true), instance(false)]);
      const digests = sent.filter((m) => m.to === 'two-instances@example.com');
      expect(digests.map((m) => m.subject)).toEqual(['4 × Test notification · Signal Router']);
      // The other share waits for the next digest, a minute after this one.
      const { rows } = await t.services.db.$client.query<{ n: number }>(
        `select count(*)::int as n from notification_deliveries d join notifications n on n.id = d.notification_id
         where n.key = $1 and d.status = 'pending' and d.next_attempt_at > now() + interval '30 s'`,
        [setting.key],
      );
      expect(rows[0]?.n).toBe(4);
    } finally {
      await settle([setting.key]);
    }
  });
  it("sends another setting's delivery of the same round while one receiver holds many of its own", async () => {
    const slow = await startWebhookReceiver();
    const fast = await startWebhookReceiver();
    slow.answer('hang');
    const holder = await setupTrader(t, 'slow-many@example.com');
    const held = await createSetting(t, holder.headers, holder.connector.key, holder.accountId, 1, { url: slow.url });
    const other = await setupTrader(t, 'fast-after-many@example.com');
    const told = await createSetting(t, other.headers, other.connector.key, other.accountId, 1, { url: fast.url });
    fast.secret = told.secret ?? '';
    // As many deliveries for the hanging receiver as webhooks go out at once, all due before the other one.
    for (let i = 0; i < 8; i++) await sendTest(t, holder.headers, held.key);
    await sendTest(t, other.headers, told.key);

    const worker = createNotificationWorker(t.services, { webhookTimeoutMs: 120_000 });
    const draining = worker.drain();
    try {
      const [got] = await fast.waitFor(0, 1);
      expect(got?.payload?.type).toBe('notification.test');
      expect(slow.received.length).toBeGreaterThan(0);
    } finally {
      await slow.close();
      await draining;
      await worker.stop();
      await fast.close();
      await settle([held.key, told.key]);
    }
  });

  it("sends other settings' deliveries due meanwhile while a receiver holds a round", async () => {
    const slow = await startWebhookReceiver();
    const fast = await startWebhookReceiver();
    slow.answer('hang');
    const holder = await setupTrader(t, 'slow-round@example.com');
    const held = await createSetting(t, holder.headers, holder.connector.key, holder.accountId, 1, { url: slow.url });
    const other = await setupTrader(t, 'fast-meanwhile@example.com');
    const told = await createSetting(t, other.headers, other.connector.key, other.accountId, 1, { url: fast.url });
    fast.secret = told.secret ?? '';

    const worker = createNotificationWorker(t.services, { pollMs: 20, webhookTimeoutMs: 120_000 });
    worker.start();
    try {
      await sendTest(t, holder.headers, held.key);
      await slow.waitFor(0, 1);
      // The round sending to the hanging receiver is still open: this one is due after it began.
      await sendTest(t, other.headers, told.key);
      const [got] = await fast.waitFor(0, 1);
      expect(got?.payload?.type).toBe('notification.test');
    } finally {
      await slow.close();
      await worker.stop();
      await fast.close();
      await settle([held.key, told.key]);
    }
  });

  it("sends a working receiver's webhook while every run of rounds it may take is held by a failing receiver", async () => {
    const slow = await startWebhookReceiver();
    const fast = await startWebhookReceiver();
    slow.answer('hang');
    const holder = await setupTrader(t, 'failing-holds@example.com');
    const held = await createSetting(t, holder.headers, holder.connector.key, holder.accountId, 1, { url: slow.url });
    // An endpoint failing for an hour already (another user's dead receiver, answering at the timeout).
    await t.services.db.$client.query(
      `update notifications set failing_since = now() - interval '1 hour', last_failed_at = now() where key = $1`,
      [held.key],
    );
    const other = await setupTrader(t, 'working-meanwhile@example.com');
    const told = await createSetting(t, other.headers, other.connector.key, other.accountId, 1, { url: fast.url });
    fast.secret = told.secret ?? '';

    // One run of rounds at a time (as when every one of them waits for a failing receiver).
    const worker = createNotificationWorker(t.services, { pollMs: 20, lanes: 1, webhookTimeoutMs: 120_000 });
    worker.start();
    try {
      await sendTest(t, holder.headers, held.key);
      await slow.waitFor(0, 1);
      await sendTest(t, other.headers, told.key);
      const [got] = await fast.waitFor(0, 1);
      expect(got?.payload?.type).toBe('notification.test');
    } finally {
      await slow.close();
      await worker.stop();
      await fast.close();
      await settle([held.key, told.key]);
    }
  });

  it('mails an event while every webhook round it may run is held by a hanging receiver', async () => {
    const slow = await startWebhookReceiver();
    slow.answer('hang');
    const trader = await setupTrader(t, 'mail-while-hooks-hang@example.com');
    const hook = await createSetting(t, trader.headers, trader.connector.key, trader.accountId, 1, { url: slow.url });
    const email = await createSetting(t, trader.headers, trader.connector.key, trader.accountId, 2, {
      email: 'mail-while-hooks-hang@example.com',
    });
    const sent: Mail[] = [];
    const mailer = {
      async send(mail: Mail) {
        sent.push(mail);
      },
    };
    const services = { ...t.services, identity: { ...t.services.identity, mailer } };
    // One run of rounds at a time (as when every one of them waits for a receiver at its timeout).
    const worker = createNotificationWorker(services, { pollMs: 20, lanes: 1, webhookTimeoutMs: 120_000 });
    worker.start();
    try {
      await sendTest(t, trader.headers, hook.key);
      await slow.waitFor(0, 1);
      // The webhook still hangs; a mail due now (an order.rejected's) does not wait for it.
      await sendTest(t, trader.headers, email.key);
      await eventually(
        async () => sent.length,
        (n) => n === 1,
      );
      expect(slow.received).toHaveLength(1);
    } finally {
      await slow.close();
      await worker.stop();
      await settle([hook.key, email.key]);
    }
  });

  it('records a mail once sent, not when a webhook of the same round answers: a crash meanwhile sends no mail twice', async () => {
    const slow = await startWebhookReceiver();
    slow.answer('hang', 'ok');
    const trader = await setupTrader(t, 'mail-beside-hang@example.com');
    const hook = await createSetting(t, trader.headers, trader.connector.key, trader.accountId, 1, { url: slow.url });
    const email = await createSetting(t, trader.headers, trader.connector.key, trader.accountId, 2, {
      email: 'mail-beside-hang@example.com',
    });
    await sendTest(t, trader.headers, hook.key);
    await sendTest(t, trader.headers, email.key);
    const sent: Mail[] = [];
    const mailer = {
      async send(mail: Mail) {
        sent.push(mail);
      },
    };
    const services = { ...t.services, identity: { ...t.services.identity, mailer } };
    const status = async () =>
      (
        await t.services.db.$client.query<{ status: string }>(
          `select d.status from notification_deliveries d join notifications n on n.id = d.notification_id
          where n.key = $1`,
          [email.key],
        )
      ).rows[0]?.status;

    const first = createNotificationWorker(services, { webhookTimeoutMs: 120_000 });
    const draining = first.drain();
    try {
      await slow.waitFor(0, 1);
      await eventually(
        async () => sent.length,
        (n) => n === 1,
      );
      // The webhook still hangs; the mail went, and says so.
      expect(await eventually(status, (s) => s !== 'pending')).toBe('delivered');
      // SIGKILL: the server's connections go (here the one of the round still waiting for the webhook).
      // Waiting for the backend to end (the timeout): without it the call returns once the signal
      // is sent, and the next worker's claim (skip locked) could pass over the rows it still locks.
      const killed = await t.services.db.$client.query<{ ended: boolean }>(
        `select pg_terminate_backend(pid, 10000) as ended from pg_stat_activity
        where datname = current_database() and state = 'idle in transaction' and query like '%skip locked%'`,
      );
      expect(killed.rows).toEqual([{ ended: true }]);
      // The next server sends what the killed one had not recorded: the webhook, not the mail.
      const next = createNotificationWorker(services);
      await next.drain();
      await next.stop();
      expect(slow.received.length).toBe(2);
      expect(sent).toHaveLength(1);
    } finally {
      await slow.close();
      await draining;
      await first.stop();
      await settle([hook.key, email.key]);
    }
  });

  it('stops after the round in progress, leaving the rest of the backlog for the next start', async () => {
    const trader = await setupTrader(t, 'worker-stop@example.com');
    const { key, secret } = await createSetting(t, trader.headers, trader.connector.key, trader.accountId, 1, {
      url: `${receiver.url}/stop`,
    });
    receiver.secret = secret ?? '';
    receiver.answer('ok');
    for (let i = 0; i < 5; i++) await sendTest(t, trader.headers, key);
    const since = receiver.received.length;

    // Rounds of one delivery: a backlog of five is five rounds.
    const worker = createNotificationWorker(t.services, { batch: 1 });
    const draining = worker.drain();
    await worker.stop();
    await draining;

    expect(receiver.received.length - since).toBe(1);
    const { rows } = await t.services.db.$client.query<{ status: string; n: number }>(
      `select d.status, count(*)::int as n from notification_deliveries d join notifications n on n.id = d.notification_id
      where n.key = $1 group by 1 order by 1`,
      [key],
    );
    expect(rows).toEqual([
      { status: 'delivered', n: 1 },
      { status: 'pending', n: 4 },
    ]);
  });

  it('tells every user of a disabled setting, though one notice cannot be sent', async () => {
    const settings: string[] = [];
    for (const name of ['notice-a', 'notice-b', 'notice-c']) {
      const trader = await setupTrader(t, `${name}@example.com`);
      const { key } = await createSetting(t, trader.headers, trader.connector.key, trader.accountId, 1, {
        url: `https://hooks.example.com/${name}`,
      });
      settings.push(key);
    }
    await t.services.db.$client.query(
      `update notifications set is_enabled = false, disabled_at = now(), disabled_reason = 'Deliveries failed for 3 days'
      where key = any($1)`,
      [settings],
    );
    // The first notice the worker sends bounces (a mailbox gone), and so does every later one to it.
    let bouncing: string | undefined;
    const sent: Mail[] = [];
    const mailer = {
      async send(mail: Mail) {
        bouncing ??= mail.to;
        if (mail.to === bouncing) throw new Error('550 mailbox unavailable');
        sent.push(mail);
      },
    };
    const worker = createNotificationWorker({ ...t.services, identity: { ...t.services.identity, mailer } });
    await worker.maintain();
    await worker.maintain();
    await worker.stop();

    expect(sent.map((m) => m.to).sort()).toEqual(
      ['notice-a@example.com', 'notice-b@example.com', 'notice-c@example.com'].filter((to) => to !== bouncing),
    );
    // The bounced one is tried again at the next pass.
    const { rows } = await t.services.db.$client.query<{ email: string; told: boolean }>(
      `select u.email, n.disabled_notice_at is not null as told from notifications n join users u on u.id = n.user_id
      where n.key = any($1) order by u.email`,
      [settings],
    );
    expect(rows.filter((r) => !r.told).map((r) => r.email)).toEqual([bouncing]);
  });

  it('does not call a mail delivered when the server has no SMTP_URL (it was only logged), nor retry it', async () => {
    const trader = await setupTrader(t, 'no-smtp@example.com');
    const { key } = await createSetting(t, trader.headers, trader.connector.key, trader.accountId, 2, {
      email: 'no-smtp@example.com',
    });
    await sendTest(t, trader.headers, key);
    const worker = createNotificationWorker(t.services);
    await worker.drain();
    await worker.stop();
    const { rows } = await t.services.db.$client.query<{ status: string; error: string; next: Date | null }>(
      `select d.status, d.error, d.next_attempt_at as next from notification_deliveries d
      join notifications n on n.id = d.notification_id where n.key = $1`,
      [key],
    );
    expect(rows).toEqual([{ status: 'failed', error: NO_MAIL_SERVER, next: null }]);
  });
});
