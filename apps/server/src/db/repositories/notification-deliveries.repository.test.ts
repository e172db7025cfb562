// The worker's claim walks the due deliveries in order and stops: the versions that deliveries
// left behind in the due index (until vacuum) are passed once, not read on every round.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticateAsUserId, startTestApp, type TestApp } from '../../../test/app.ts';
import { createSetting } from '../../../test/notification-fixtures.ts';
import { measureReads } from '../../../test/row-reads.ts';
import { setupTrader } from '../../../test/signal-fixtures.ts';
import { DISABLE_AFTER_MS, STREAK_BREAK_MS } from '../../modules/notifications/delivery-rules.ts';
import {
  claimDueDeliveries,
  recordDeliveryResults,
  recordEndpointHealth,
} from './notification-deliveries.repository.ts';

let t: TestApp;

beforeAll(async () => {
  // The app's own worker would claim (and deliver) the deliveries these cases claim themselves:
  // its rounds are put an hour apart, so only the cases' claims run.
  t = await startTestApp({ authenticate: authenticateAsUserId, notifications: { pollMs: 3_600_000 } });
});
afterAll(async () => {
  await t.close();
});

const DELIVERED = 20_000;

describe('claiming due deliveries', () => {
  it('reads what is due, not what was delivered since the last vacuum', async () => {
    const trader = await setupTrader(t, 'claims@example.com');
    const { key } = await createSetting(t, trader.headers, trader.connector.key, trader.accountId, 2, {
      email: 'claims@example.com',
    });
    const pool = t.services.db.$client;
    // Vacuum would clear the dead entries this case is about; it runs on its own schedule.
    await pool.query('alter table notification_deliveries set (autovacuum_enabled = false)');
    const deliveries = (count: number, prefix: string) =>
      pool.query(
        `with events as (
          insert into notification_events (id, user_id, connector_id, account_id, type, data)
          select 'msg_${prefix}' || n, n.user_id, n.connector_id, n.account_id, 'order.placed', '{}'
          from generate_series(1, ${count}) g(n), notifications n where n.key = $1
          returning id
        )
        insert into notification_deliveries (event_id, notification_id, type, next_attempt_at)
        select e.id, n.id, 'order.placed', now() - interval '1 minute' from events e, notifications n where n.key = $1`,
        [key],
      );
    await deliveries(DELIVERED, 'delivered');
    await pool.query(
      `update notification_deliveries set status = 'delivered', attempts = 1, next_attempt_at = null, last_attempt_at = now()`,
    );
    await deliveries(5, 'due');
    // Not analyzed: a flood outruns autoanalyze, as in the benchmark where the planner chose the
    // bitmap (with fresh statistics it may walk the index anyway, and the case would prove nothing).

    const claim = async () => {
      const { value, read } = await measureReads(t.services.db, 'notification_deliveries', (tx) =>
        claimDueDeliveries(tx, 200, [], 2),
      );
      return { claimed: value.length, read };
    };
    expect((await claim()).claimed).toBe(5);
    // A walk marks the dead entries it passes once no snapshot can still see them; a transaction
    // of the app's own background passes may hold one back for a moment, so a few walks may pass
    // them all. A bitmap scan never marks them: every claim reads them all.
    let again = await claim();
    for (let walk = 0; walk < 3 && again.read >= 200; walk++) again = await claim();
    expect(again.claimed).toBe(5);
    expect(again.read).toBeLessThan(200);
  });
});

describe("a webhook endpoint's health", () => {
  const webhookSetting = async (email: string) => {
    const trader = await setupTrader(t, email);
    await createSetting(t, trader.headers, trader.connector.key, trader.accountId, 1, {
      url: 'https://hooks.example.com/in',
    });
    const pool = t.services.db.$client;
    const { rows } = await pool.query<{ id: string }>(
      'select id from notifications where connector_id = (select id from connectors where key = $1) and type = 1',
      [trader.connector.key],
    );
    const id = Number(rows[0]?.id);
    const state = async () =>
      (
        await pool.query<{ failing: boolean; is_enabled: boolean }>(
          'select failing_since is not null as failing, is_enabled from notifications where id = $1',
          [id],
        )
      ).rows[0];
    const record = (ok: boolean) =>
      recordEndpointHealth(t.services.db, [{ notificationId: id, ok }], DISABLE_AFTER_MS, 'gone', STREAK_BREAK_MS);
    return { pool, id, state, record };
  };

  it('a first failure starts the streak, three days of it disable the setting, a success ends it', async () => {
    const { pool, id, state, record } = await webhookSetting('health@example.com');
    // The first failure of a healthy endpoint (the statement failed on it before: no streak ever began).
    expect(await record(false)).toEqual([]);
    expect(await state()).toEqual({ failing: true, is_enabled: true });
    expect(await record(true)).toEqual([]);
    expect(await state()).toEqual({ failing: false, is_enabled: true });
    await record(false);
    // Failing for 3 days: the streak began 3 days ago, its last failure was a moment ago.
    await pool.query(
      `update notifications set failing_since = failing_since - interval '3 days 1 minute' where id = $1`,
      [id],
    );
    expect(await record(false)).toEqual([id]);
    expect(await state()).toEqual({ failing: true, is_enabled: false });
  });

  it('a failure days after the last one starts a new streak instead of disabling the setting', async () => {
    const { pool, id, state, record } = await webhookSetting('health-gap@example.com');
    // Friday: the receiver fails (its deliveries given up); fixed on Saturday, nothing sent until Monday.
    await record(false);
    await pool.query(
      `update notifications set failing_since = failing_since - interval '3 days 1 minute',
        last_failed_at = last_failed_at - interval '3 days 1 minute' where id = $1`,
      [id],
    );
    // Monday's one failure is the first of a new streak: the setting stays enabled, retries go on.
    expect(await record(false)).toEqual([]);
    expect(await state()).toEqual({ failing: true, is_enabled: true });
    const { rows } = await pool.query<{ recent: boolean }>(
      `select failing_since > now() - interval '1 hour' as recent from notifications where id = $1`,
      [id],
    );
    expect(rows[0]?.recent).toBe(true);
  });
});

describe('recording results', () => {
  it('waits the retry from when the attempt ended, not from when its round began', async () => {
    const trader = await setupTrader(t, 'retry-wait@example.com');
    const { key } = await createSetting(t, trader.headers, trader.connector.key, trader.accountId, 2, {
      email: 'retry-wait@example.com',
    });
    const { rows: queued } = await t.services.db.$client.query<{ id: number }>(
      `with event as (
        insert into notification_events (id, user_id, connector_id, account_id, type, data)
        select 'msg_retry_wait', n.user_id, n.connector_id, n.account_id, 'order.placed', '{}' from notifications n
        where n.key = $1 returning id
      )
      insert into notification_deliveries (event_id, notification_id, type, next_attempt_at)
      select e.id, n.id, 'order.placed', now() - interval '1 minute' from event e, notifications n where n.key = $1
      returning id::float8 as id`,
      [key],
    );
    const id = queued[0]?.id ?? 0;
    const waited = await t.services.db.transaction(async (tx) => {
      // An attempt that took its time (a receiver answering at the timeout), then a 100 ms wait.
      await tx.execute(sql`select pg_sleep(0.3)`);
      await recordDeliveryResults(tx, [
        { id, ok: false, responseCode: null, error: 'Timed out', retryInMs: 100, inDigest: false },
      ]);
      const { rows } = await tx.execute<{ after: boolean }>(
        sql`select next_attempt_at >= now() + interval '400 ms' as after from notification_deliveries where id = ${id}`,
      );
      return rows[0]?.after;
    });
    expect(waited).toBe(true);
    await t.services.db.$client.query(`update notification_deliveries set status = 'failed' where id = $1`, [id]);
  });
});
