// A connector notice whose first try failed is tried again hours later (the retry schedule): by
// then the user may have reconnected, or the server renewed the session, and the connection no
// longer expires then, nor is it deactivated. Such a retry is given up, not sent.
import { EXPIRY_WARNING_DAYS, EXPIRY_WARNING_DAYS_BY_PROVIDER } from '@router/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticateAsUserId, insertTestUser, startTestApp, type TestApp } from '../../../test/app.ts';
import { type ConnectorAnswer, connect } from '../../../test/connector-fixtures.ts';
import { fakeKeyBroker } from '../../../test/fake-brokers.ts';
import { createSetting, deliveries, eventually } from '../../../test/notification-fixtures.ts';
import { type SmtpSink, startSmtpSink } from '../../../test/smtp-sink.ts';
import { findConnectorById } from '../../db/repositories/connectors.repository.ts';
import type { Executor } from '../../db/repositories/executor.ts';
import {
  emitExpiringConnectors,
  STALE_DEACTIVATION_NOTICE,
  STALE_EXPIRY_NOTICE,
} from '../../db/repositories/notification-maintenance.repository.ts';
import { deactivateConnector } from './deactivate.ts';
import { withBrokerSession } from './session.ts';

let t: TestApp;
let sink: SmtpSink;
let alice: Record<string, string>;
let live: ConnectorAnswer;
let liveId: number;
beforeAll(async () => {
  sink = await startSmtpSink();
  t = await startTestApp({
    env: { SMTP_URL: sink.url, PUBLIC_URL: 'https://router.example', NOTIFICATION_RETRY_SCHEDULE: '50ms,50ms' },
    authenticate: authenticateAsUserId,
    brokers: [fakeKeyBroker().broker],
    // No polling: each test drains the worker itself once its notice is set to retry later. With
    // polling on, a notice written by `deactivateConnector` could be sent before the test moved it.
    notifications: { pollMs: 3_600_000 },
  });
  ({ headers: alice } = await insertTestUser(t.services, 'alice@example.com'));
  live = await connect(t, alice, 'keyfake', ['key', 'sekret-ok']);
  const { rows } = await t.services.db.$client.query<{ id: string }>('select id from connectors where key = $1', [
    live.key,
  ]);
  liveId = Number(rows[0]?.id);
  await createSetting(t, alice, live.key, 'L-1', 2, { email: 'desk@example.com' });
});
afterAll(async () => {
  await t.close();
  await sink.close();
});

/** The pending notices of this type failed their first try, and are due again in an hour. */
const retryingLater = (tx: Executor, type: string) =>
  tx.execute(sql`update notification_deliveries set attempts = 1, last_attempt_at = now(),
      error = 'Mail not sent: connection refused', next_attempt_at = now() + interval '1 hour'
    where type = ${type} and status = 'pending'`);

/** The connection expires in 5 days; its warning's first try failed, and it is due again in an hour. */
async function warnedAndRetryingLater(): Promise<void> {
  await t.services.db.$client.query(`update connectors set expires_at = now() + interval '5 days' where id = $1`, [
    liveId,
  ]);
  await t.services.db.transaction(async (tx) => {
    expect(await emitExpiringConnectors(tx, EXPIRY_WARNING_DAYS_BY_PROVIDER, EXPIRY_WARNING_DAYS)).toBe(1);
    await retryingLater(tx, 'connector.expiring');
  });
}

/** The notice, due now (its hour passed): given up, no mail. */
async function expectGivenUp(type: string, error: string, subject: RegExp): Promise<void> {
  await t.services.db.$client.query(
    `update notification_deliveries set next_attempt_at = now() where type = $1 and status = 'pending'`,
    [type],
  );
  await t.app.notificationWorker.drain();
  const notice = await eventually(
    async () => (await deliveries(t, alice, live.key, 'L-1')).find((d) => d.event === type),
    (d) => d?.status !== 'pending',
  );
  expect(notice).toMatchObject({ status: 'failed', attempts: 1, error });
  expect(sink.mails.filter((m) => subject.test(m.subject))).toEqual([]);
}

const expiryGivenUp = () => expectGivenUp('connector.expiring', STALE_EXPIRY_NOTICE, /expires/);

describe('expiry warnings not sent late', () => {
  it('gives up a warning still due after the user reconnected', async () => {
    await warnedAndRetryingLater();
    const again = await connect(t, alice, 'keyfake', ['key', 'sekret-ok']);
    expect(again.key).toBe(live.key);
    await expiryGivenUp();
  });

  it('gives up a warning still due after a renewal moved the expiry on', async () => {
    await t.services.db.$client.query(`delete from notification_events where type = 'connector.expiring'`);
    await warnedAndRetryingLater();
    await t.services.db.$client.query(`update connectors set refresh_at = now() - interval '1 minute' where id = $1`, [
      liveId,
    ]);
    const row = await findConnectorById(t.services.db, liveId);
    if (!row) throw new Error('connector gone');
    await withBrokerSession(t.services, row, async () => undefined, { refreshOnly: true });
    await expiryGivenUp();
  });
});

describe('deactivation notices not sent late', () => {
  it('gives up a deactivation notice still due after the user reconnected', async () => {
    expect(await deactivateConnector(t.services, liveId, 'Key Fake: token revoked')).toBe(true);
    await t.services.db.transaction((tx) => retryingLater(tx, 'connector.deactivated'));
    const again = await connect(t, alice, 'keyfake', ['key', 'sekret-ok']);
    expect(again).toMatchObject({ key: live.key, isActive: true });
    await expectGivenUp('connector.deactivated', STALE_DEACTIVATION_NOTICE, /deactivated/);
  });
});
