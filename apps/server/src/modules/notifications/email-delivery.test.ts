// Email notifications end to end: events emitted in a transaction, fanned out to the settings
// that want them, delivered by the worker to a real SMTP server; connector events; digests.

import { EXPIRY_WARNING_DAYS, EXPIRY_WARNING_DAYS_BY_PROVIDER } from '@router/shared';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { authenticateAsUserId, insertTestUser, startTestApp, type TestApp } from '../../../test/app.ts';
import { type ConnectorAnswer, connect, gql } from '../../../test/connector-fixtures.ts';
import { fakeKeyBroker } from '../../../test/fake-brokers.ts';
import { createSetting, deliveries, eventually, sendTest } from '../../../test/notification-fixtures.ts';
import { type SmtpSink, startSmtpSink } from '../../../test/smtp-sink.ts';
import { emitExpiringConnectors } from '../../db/repositories/notification-maintenance.repository.ts';
import { deactivateConnector } from '../connectors/index.ts';
import {
  emitEvents,
  emitEventsOn,
  type NotificationEvent,
  notificationEventCtes,
  type OrderEventData,
} from './events.ts';

// One mail that cannot be written: the real mails, but one whose event's data is marked so throws
// while it is written, as a mail of odd stored data would.
vi.mock('./mail-content.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('./mail-content.ts')>();
  return {
    ...real,
    eventMail: (...args: Parameters<typeof real.eventMail>) => {
      if ((args[2].data as { unwritable?: boolean }).unwritable) throw new Error('this mail cannot be written');
      return real.eventMail(...args);
    },
  };
});

let t: TestApp;
let sink: SmtpSink;
let alice: Record<string, string>;
let aliceId: number;
let live: ConnectorAnswer;
let liveId: number;
beforeAll(async () => {
  sink = await startSmtpSink();
  t = await startTestApp({
    env: { SMTP_URL: sink.url, PUBLIC_URL: 'https://router.example', NOTIFICATION_RETRY_SCHEDULE: '50ms,50ms' },
    authenticate: authenticateAsUserId,
    brokers: [fakeKeyBroker().broker],
    // Rounds of 3: a flood of 8 spans rounds, and its digest still takes all of it.
    notifications: { pollMs: 25, batch: 3 },
  });
  ({ id: aliceId, headers: alice } = await insertTestUser(t.services, 'alice@example.com'));
  live = await connect(t, alice, 'keyfake', ['key', 'sekret-ok']);
  const { rows } = await t.services.db.$client.query<{ id: string }>('select id from connectors where key = $1', [
    live.key,
  ]);
  liveId = Number(rows[0]?.id);
});
afterAll(async () => {
  await t.close();
  await sink.close();
});

function order(type: 'order.placed' | 'order.rejected', signalId: string, accountId = 'L-1'): NotificationEvent {
  const data: OrderEventData = {
    signalId,
    hook: { key: 'h1', name: 'Swing' },
    connectorKey: live.key,
    providerName: 'keyfake',
    accountId,
    order: { symbol: 'AAPL', action: 'buy', quantity: 5, type: 'market' },
    status: type === 'order.rejected' ? 'rejected' : 'accepted',
    brokerOrderId: null,
    price: null,
    ...(type === 'order.rejected' ? { message: 'Key Fake: insufficient buying power' } : {}),
  };
  return { userId: aliceId, connectorId: liveId, accountId, type, data };
}

const mailsTo = (to: string) => sink.mails.filter((m) => m.to.includes(to));

const pending = async () =>
  (
    await t.services.db.$client.query<{ n: number }>(
      `select count(*)::int as n from notification_deliveries where status = 'pending'`,
    )
  ).rows[0]?.n;

// Every case starts after a quiet minute (moved back rather than waited for): the events of the
// cases before it are no flood that would hold its mails for a digest. So the cases pass in any order.
beforeEach(async () => {
  await eventually(pending, (n) => n === 0);
  await t.services.db.$client.query(`update notification_deliveries set created_at = created_at - interval '2 min'`);
});

describe('email notifications', () => {
  it('delivers a test notification through SMTP and logs it', async () => {
    const setting = await createSetting(t, alice, live.key, 'L-1', 2, { email: 'desk@example.com' });
    const since = sink.mails.length;
    const queued = await sendTest(t, alice, setting.key);
    expect(queued).toMatchObject({ status: 'pending', event: 'notification.test', attempts: 0, type: 2 });
    const mail = await sink.waitFor('desk@example.com', since);
    expect(mail.subject).toBe('Test notification · Signal Router');
    expect(mail.text).toContain('Notifications of Key Fake account L-1 reach this address.');
    const log = await eventually(
      () => deliveries(t, alice, live.key, 'L-1'),
      (rows) => rows.find((d) => d.id === queued.id)?.status === 'delivered',
    );
    expect(log.find((d) => d.id === queued.id)).toMatchObject({ attempts: 1, error: null });
  });

  it('sends each event only to the settings that chose it, once per address', async () => {
    await createSetting(t, alice, live.key, 'L-1', 2, {
      email: 'desk@example.com',
      events: ['order.rejected', 'credits.low'],
    });
    // The paper account's setting wants everything, at the same address (in other case).
    const paper = await connect(t, alice, 'paper');
    const paperAccount = (JSON.parse(paper.accounts) as Array<{ id: string }>)[0]?.id ?? '';
    await createSetting(t, alice, paper.key, paperAccount, 2, { email: 'Desk@example.com' });
    const before = sink.mails.length;
    const queued = await t.services.db.transaction((tx) =>
      emitEvents(tx, [
        order('order.placed', 'sig-placed'),
        order('order.rejected', 'sig-rejected'),
        order('order.rejected', 'sig-demo', 'D-2'),
        { userId: aliceId, type: 'credits.low', data: { balance: 2, threshold: 5 } },
      ]),
    );
    expect(queued).toBe(2); // the rejected order on L-1; credits.low once for the one address
    await eventually(
      async () => sink.mails.slice(before),
      (m) => m.length === 2,
    );
    const [rejected, credits] = ['Order rejected', 'You have 2 signals left'].map((s) =>
      sink.mails.slice(before).find((m) => m.subject.startsWith(s)),
    );
    expect(rejected?.subject).toBe('Order rejected: BUY 5 AAPL on Key Fake · Signal Router');
    expect(rejected?.text).toContain('Message: Key Fake: insufficient buying power');
    expect(rejected?.text).toContain('See it in your activity: https://router.example/me?signal=sig-rejected');
    expect(credits?.text).toContain('Add credits: https://router.example/me/account');
    const { rows } = await t.services.db.$client.query<{ n: number }>(
      "select count(*)::int as n from notification_events where data->>'signalId' in ('sig-placed', 'sig-demo')",
    );
    expect(rows[0]?.n).toBe(0); // no setting wanted them: nothing written
    await gql(t, alice, 'mutation($k: String!) { connectorDelete(key: $k) }', { k: paper.key });
  });

  it('emits from inside another statement (the set-based form), or on a pg client', async () => {
    await createSetting(t, alice, live.key, 'L-1', 2, { email: 'desk@example.com', events: ['order.rejected'] });
    // As the signal path would: a statement's own CTE yields the rows, the outbox CTEs follow.
    const before = mailsTo('desk@example.com').length;
    const { rows } = await t.services.db.$client.query<{ deliveries: number }>(
      `with outcome(user_id, connector_id, account_id, status, signal_id) as (
         values ($1::bigint, $2::bigint, 'L-1', 'rejected', 'set-1'), ($1::bigint, $2::bigint, 'L-1', 'accepted', 'set-2')
       ), source as (
         select user_id, connector_id, account_id,
           case when status = 'rejected' then 'order.rejected' else 'order.placed' end as type,
           jsonb_build_object('signalId', signal_id, 'status', status) as data
         from outcome
       ), ${notificationEventCtes('source')}
       select (select count(*) from notify_deliveries)::int as deliveries`,
      [aliceId, liveId],
    );
    expect(rows[0]?.deliveries).toBe(1); // desk@ wants order.rejected only
    expect(await emitEventsOn(t.services.db.$client, [order('order.rejected', 'on-client')])).toBe(1);
    const mails = await eventually(
      async () => mailsTo('desk@example.com').slice(before),
      (m) => m.length === 2,
    );
    expect(mails.map((m) => m.text.match(/Signal id: (\S+)/)?.[1]).sort()).toEqual(['on-client', 'set-1']);
  });

  it('fails only the delivery whose mail cannot be written, not the round of every other delivery', async () => {
    await createSetting(t, alice, live.key, 'L-1', 2, { email: 'odd@example.com' });
    const before = mailsTo('odd@example.com').length;
    // A stored event whose mail throws while it is written (an expiry past what a Date holds did,
    // until event texts read dates defensively). Before, that failed the whole round, every round:
    // no mail went out at all.
    const data = { connectorKey: live.key, providerName: 'keyfake', accountIds: ['L-1'], unwritable: true };
    const odd = { userId: aliceId, connectorId: liveId, type: 'connector.expiring', data } as NotificationEvent;
    await emitEvents(t.services.db, [odd, order('order.rejected', 'beside-odd')]);
    const mails = await eventually(
      async () => mailsTo('odd@example.com').slice(before),
      (m) => m.length > 0,
    );
    expect(mails.map((m) => m.subject)).toEqual(['Order rejected: BUY 5 AAPL on Key Fake · Signal Router']);
    // The odd one is retried on the schedule, then given up, with what went wrong.
    const log = await eventually(
      () => deliveries(t, alice, live.key, 'L-1'),
      (rows) => rows.some((d) => d.event === 'connector.expiring' && d.status === 'failed'),
    );
    expect(log.find((d) => d.event === 'connector.expiring')).toMatchObject({ status: 'failed', attempts: 3 });
    expect(log.find((d) => d.event === 'connector.expiring')?.error).toMatch(
      /^Mail not sent: this mail cannot be written$/,
    );
  });

  it('writes nothing when the emitting transaction rolls back', async () => {
    const count = async () =>
      (await t.services.db.$client.query<{ n: number }>('select count(*)::int as n from notification_events')).rows[0]
        ?.n;
    await createSetting(t, alice, live.key, 'L-1', 2, { email: 'desk@example.com', events: ['order.rejected'] });
    const before = await count();
    await expect(
      t.services.db.transaction(async (tx) => {
        expect(await emitEvents(tx, [order('order.rejected', 'sig-rolled-back')])).toBe(1);
        throw new Error('the order was not stored');
      }),
    ).rejects.toThrow('not stored');
    expect(await count()).toBe(before);
  });

  it('tells the user when a connection is deactivated, and once per expiry when it is about to expire', async () => {
    await createSetting(t, alice, live.key, 'L-1', 2, { email: 'desk@example.com' });
    let since = mailsTo('desk@example.com').length;
    expect(await deactivateConnector(t.services, liveId, 'Key Fake: token revoked')).toBe(true);
    await eventually(
      async () => mailsTo('desk@example.com').slice(since),
      (m) => m.length > 0,
    );
    const deactivated = mailsTo('desk@example.com')[since];
    expect(deactivated?.subject).toBe('Your Key Fake connection was deactivated · Signal Router');
    expect(deactivated?.text).toContain('Reason: Key Fake: token revoked');

    // Expiring in 7 days: not yet (6 days' warning); in 5 days: once, however often the pass runs.
    const expireIn = (days: number) =>
      t.services.db.$client.query(
        `update connectors set is_active = true, expires_at = now() + $2 * interval '1 day' where id = $1`,
        [liveId, days],
      );
    await expireIn(7);
    await t.app.notificationWorker.maintain();
    await expireIn(5);
    since = mailsTo('desk@example.com').length;
    await t.app.notificationWorker.maintain();
    await t.app.notificationWorker.maintain();
    await eventually(
      async () => mailsTo('desk@example.com').slice(since),
      (m) => m.length > 0,
    );
    await t.app.notificationWorker.drain();
    const expiring = mailsTo('desk@example.com').slice(since);
    expect(expiring.map((m) => m.subject)).toEqual([expect.stringMatching(/^Your Key Fake connection expires on /)]);
    // A provider with a shorter warning (Schwab's 3 days) is not told 5 days ahead; a new expiry is told again.
    await expireIn(2.5);
    expect(await emitExpiringConnectors(t.services.db, { keyfake: 2 }, 6)).toBe(0);
    expect(await emitExpiringConnectors(t.services.db, { keyfake: 3 }, 6)).toBe(1);
    // Its mail goes before the next case, and the connection no longer expires.
    await eventually(pending, (n) => n === 0);
    await t.services.db.$client.query('update connectors set expires_at = null where id = $1', [liveId]);
  });
});

describe('connections renewed by the server', () => {
  it('warns of no Saxo expiry: its refresh token lasts an hour and every refresh moves it on', async () => {
    await createSetting(t, alice, live.key, 'L-1', 2, { email: 'rolling@example.com' });
    const expireInMinutes = (minutes: number) =>
      t.services.db.$client.query(
        `update connectors set provider_name = 'saxo', is_active = true, expires_at = now() + $2 * interval '1 minute'
         where id = $1`,
        [liveId, minutes],
      );
    const emit = () => emitExpiringConnectors(t.services.db, EXPIRY_WARNING_DAYS_BY_PROVIDER, EXPIRY_WARNING_DAYS);
    try {
      // Connected: the session ends in 60 minutes; refreshed 18 minutes later: in 60 again, and so on.
      await expireInMinutes(60);
      expect(await emit()).toBe(0);
      await expireInMinutes(78);
      expect(await emit()).toBe(0);
    } finally {
      await t.services.db.$client.query(
        `update connectors set provider_name = 'keyfake', expires_at = null where id = $1`,
        [liveId],
      );
    }
  });
});

describe('digests', () => {
  const rejectedMails = (since: number) => mailsTo('flood@example.com').slice(since);

  it("gives one address one flood treatment across the user's settings that mail it", async () => {
    await createSetting(t, alice, live.key, 'L-1', 2, { email: 'shared@example.com', events: ['order.placed'] });
    const paper = await connect(t, alice, 'paper');
    const paperAccount = (JSON.parse(paper.accounts) as Array<{ id: string }>)[0]?.id ?? '';
    await createSetting(t, alice, paper.key, paperAccount, 2, {
      email: 'Shared@example.com',
      events: ['order.placed'],
    });
    const { rows: ids } = await t.services.db.$client.query<{ id: string }>(
      'select id from connectors where key = $1',
      [paper.key],
    );
    const onPaper = (n: number): NotificationEvent => ({
      ...order('order.placed', `shared-paper-${n}`),
      connectorId: Number(ids[0]?.id),
      accountId: paperAccount,
    });
    const shared = () => sink.mails.filter((m) => m.to.some((to) => to.toLowerCase() === 'shared@example.com'));
    const since = shared().length;
    try {
      // Four events through each setting: eight for the one inbox within the minute.
      await emitEvents(t.services.db, [
        ...[1, 2, 3, 4].map((n) => order('order.placed', `shared-live-${n}`)),
        ...[1, 2, 3, 4].map(onPaper),
      ]);
      const waiting = async () =>
        (
          await t.services.db.$client.query<{ n: number }>(
            `select count(*)::int as n from notification_deliveries where status = 'pending' and type = 'order.placed'`,
          )
        ).rows[0]?.n ?? 0;
      // Every one of them sent or put back to wait (none due now).
      await eventually(
        async () =>
          (
            await t.services.db.$client.query<{ n: number }>(
              `select count(*)::int as n from notification_deliveries
               where status = 'pending' and type = 'order.placed' and next_attempt_at <= now()`,
            )
          ).rows[0]?.n,
        (n) => n === 0,
      );
      // The first five one by one, the other three wait for the address's digest.
      expect(shared().slice(since)).toHaveLength(5);
      expect(await waiting()).toBe(3);
    } finally {
      await t.services.db.$client.query(
        `update notification_deliveries set status = 'failed', next_attempt_at = null where status = 'pending'`,
      );
      await t.services.db.$client.query('delete from notification_digests');
      await gql(t, alice, 'mutation($k: String!) { connectorDelete(key: $k) }', { k: paper.key });
    }
  });

  it('mails the first 5 of a burst at once and the rest as one digest a minute later, none lost', async () => {
    await createSetting(t, alice, live.key, 'L-1', 2, { email: 'burst@example.com', events: ['order.placed'] });
    const burst = () => mailsTo('burst@example.com');
    const since = burst().length;
    await emitEvents(
      t.services.db,
      [1, 2, 3, 4, 5, 6, 7, 8].map((n) => order('order.placed', `burst-${n}`)),
    );
    const first = await eventually(
      async () => burst().slice(since),
      (m) => m.length === 5,
    );
    expect(first.every((m) => m.subject.startsWith('Order placed: BUY 5 AAPL'))).toBe(true);
    // The other three wait for their digest: a minute passes (moved back rather than waited for).
    await eventually(
      async () =>
        (
          await t.services.db.$client.query<{ n: number }>(
            `select count(*)::int as n from notification_deliveries where status = 'pending' and type = 'order.placed'`,
          )
        ).rows[0]?.n,
      (n) => n === 3,
    );
    await t.services.db.$client.query(
      `update notification_deliveries set created_at = created_at - interval '61 s',
         next_attempt_at = next_attempt_at - interval '61 s' where type = 'order.placed'`,
    );
    await t.services.db.$client.query(
      `update notification_digests set collecting_until = collecting_until - interval '61 s'`,
    );
    const [, , , , , digest] = await eventually(
      async () => burst().slice(since),
      (m) => m.length > 5,
    );
    expect(digest?.subject).toBe('3 × Order placed · Signal Router');
    // The round records its results just after the mail went: read them once it has.
    const rows = await eventually(
      async () =>
        (
          await t.services.db.$client.query<{ in_digest: boolean; n: number }>(
            `select d.in_digest, count(*)::int as n from notification_deliveries d join notification_events e on e.id = d.event_id
             where e.data->>'signalId' like 'burst-%' and d.status = 'delivered' group by 1 order by 1`,
          )
        ).rows,
      (r) => r.length === 2,
    );
    expect(rows).toEqual([
      { in_digest: false, n: 5 },
      { in_digest: true, n: 3 },
    ]);
    await t.app.notificationWorker.drain();
    expect(burst().slice(since)).toHaveLength(6);
  });

  it('sends up to 5 events of a kind a minute one by one, and a flood as one digest', async () => {
    await createSetting(t, alice, live.key, 'L-1', 2, { email: 'flood@example.com', events: ['order.rejected'] });
    let since = mailsTo('flood@example.com').length;
    await emitEvents(
      t.services.db,
      [1, 2, 3].map((n) => order('order.rejected', `few-${n}`)),
    );
    await eventually(
      async () => rejectedMails(since),
      (m) => m.length === 3,
    );

    since = mailsTo('flood@example.com').length;
    await emitEvents(
      t.services.db,
      [1, 2, 3, 4, 5, 6, 7, 8].map((n) => order('order.rejected', `flood-${n}`)),
    );
    // The first two of the flood make the minute's five and go at once, one by one (whatever
    // rounds it spans); the rest waits for its digest, a minute after the oldest waiting event.
    await eventually(
      async () => rejectedMails(since),
      (m) => m.length === 2,
    );
    await eventually(
      async () =>
        (
          await t.services.db.$client.query<{ n: number }>(
            `select count(*)::int as n from notification_deliveries
             where status = 'pending' and next_attempt_at > now() + interval '30 s'`,
          )
        ).rows[0]?.n,
      (n) => n === 6,
    );
    await t.app.notificationWorker.drain();
    expect(rejectedMails(since)).toHaveLength(2);
    // More of the flood while it collects: written due when the digest goes, so no round claims
    // them and puts them back one by one.
    await emitEvents(
      t.services.db,
      [9, 10].map((n) => order('order.rejected', `flood-${n}`)),
    );
    await t.app.notificationWorker.drain();
    // Never updated since written (a delivery claimed and put back would carry the round's xmin).
    const { rows: untouched } = await t.services.db.$client.query<{ same: boolean }>(
      `select d.xmin = e.xmin as same from notification_deliveries d join notification_events e on e.id = d.event_id
       where e.data->>'signalId' in ('flood-9', 'flood-10')`,
    );
    expect(untouched).toEqual([{ same: true }, { same: true }]);
    const { rows: waiting } = await t.services.db.$client.query<{ at: string; n: number }>(
      `select next_attempt_at::text as at, count(*)::int as n from notification_deliveries
       where status = 'pending' group by 1`,
    );
    const { rows: collecting } = await t.services.db.$client.query<{ at: string }>(
      `select collecting_until::text as at from notification_digests where type = 'order.rejected'`,
    );
    expect(waiting).toEqual([{ at: collecting[0]?.at, n: 8 }]);
    // A minute passes (moved back in the rows rather than waited for).
    await t.services.db.$client.query(
      `update notification_deliveries set created_at = created_at - interval '61 s',
         next_attempt_at = next_attempt_at - interval '61 s' where status = 'pending'`,
    );
    await t.services.db.$client.query(
      `update notification_digests set collecting_until = collecting_until - interval '61 s'`,
    );
    const [, , digest] = await eventually(
      async () => rejectedMails(since),
      (m) => m.length > 2,
    );
    expect(digest?.subject).toBe('8 × Order rejected or failed · Signal Router');
    expect(digest?.text.match(/ — Order rejected: BUY 5 AAPL on Key Fake/g)).toHaveLength(8);
    const log = await eventually(
      () => deliveries(t, alice, live.key, 'L-1'),
      (rows) => rows.filter((d) => d.event === 'order.rejected' && d.inDigest && d.status === 'delivered').length === 8,
    );
    expect(log.filter((d) => d.event === 'order.rejected' && d.inDigest)).toHaveLength(8);
    await t.app.notificationWorker.drain();
    expect(rejectedMails(since)).toHaveLength(3);
    // Every event of the flood told once: two on their own, the rest in the digest.
    const { rows: told } = await t.services.db.$client.query<{ in_digest: boolean; n: number }>(
      `select d.in_digest, count(*)::int as n from notification_deliveries d join notification_events e on e.id = d.event_id
       where e.data->>'signalId' like 'flood-%' and d.status = 'delivered' and d.attempts = 1 group by 1 order by 1`,
    );
    expect(told).toEqual([
      { in_digest: false, n: 2 },
      { in_digest: true, n: 8 },
    ]);
  });
});
