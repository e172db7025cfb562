// Old notification events go in one maintenance pass, however many: batch after batch, not one
// batch per pass (which a busy day's events would outgrow). Events with a delivery still to send,
// and recent ones, stay.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticateAsUserId, startTestApp, type TestApp } from '../../../test/app.ts';
import { createSetting } from '../../../test/notification-fixtures.ts';
import { setupTrader } from '../../../test/signal-fixtures.ts';
import { createNotificationWorker } from './worker.ts';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({
    authenticate: authenticateAsUserId,
    notifications: { pollMs: 60_000, retentionDays: 30, retentionBatch: 100 },
  });
});
afterAll(async () => {
  await t.close();
});

describe('notification retention', () => {
  it('removes every event past the retention in one pass, keeping what is still to send', async () => {
    const trader = await setupTrader(t, 'retention@example.com');
    const { key } = await createSetting(t, trader.headers, trader.connector.key, trader.accountId, 2, {
      email: 'retention@example.com',
    });
    // The pass the worker ran at start is over before the history is written.
    await t.app.notificationWorker.maintain();
    const pool = t.services.db.$client;
    const history = (prefix: string, count: number, age: string, status: string) =>
      pool.query(
        `with events as (
          insert into notification_events (id, user_id, connector_id, account_id, type, data, created_at)
          select 'msg_${prefix}' || g, n.user_id, n.connector_id, n.account_id, 'order.placed', '{}', now() - $2::interval
          from generate_series(1, ${count}) g, notifications n where n.key = $1
          returning id
        )
        insert into notification_deliveries (event_id, notification_id, type, status, next_attempt_at)
        select e.id, n.id, 'order.placed', $3, case when $3 = 'pending' then now() + interval '1 hour' end
        from events e, notifications n where n.key = $1`,
        [key, age, status],
      );
    await history('old', 350, '31 days', 'delivered');
    await history('oldpending', 3, '31 days', 'pending');
    await history('recent', 4, '29 days', 'delivered');

    await t.app.notificationWorker.maintain();

    const { rows } = await pool.query<{ kind: string; events: number; deliveries: number }>(
      `select regexp_replace(e.id, '^msg_([a-z]+).*$', '\\1') as kind, count(distinct e.id)::int as events,
        count(d.id)::int as deliveries
      from notification_events e left join notification_deliveries d on d.event_id = e.id
      where e.user_id = $1 group by 1 order by 1`,
      [trader.userId],
    );
    expect(rows).toEqual([
      { kind: 'oldpending', events: 3, deliveries: 3 },
      { kind: 'recent', events: 4, deliveries: 4 },
    ]);
    const orphans = await pool.query(
      `select 1 from notification_deliveries d where not exists (select 1 from notification_events e where e.id = d.event_id)`,
    );
    expect(orphans.rowCount).toBe(0);
  });
  it('a stop does not wait for a long backlog: the rest goes at the next pass', async () => {
    const trader = await setupTrader(t, 'retention-stop@example.com');
    await t.services.db.$client.query(
      `insert into notification_events (id, user_id, type, data, created_at)
      select 'msg_backlog' || g, $1, 'credits.low', '{}', now() - interval '31 days' from generate_series(1, 50) g`,
      [trader.userId],
    );
    // A worker of its own, deleting one event per statement.
    const worker = createNotificationWorker(t.services, { retentionDays: 30, retentionBatch: 1 });
    const pass = worker.maintain();
    await worker.stop();
    await pass;
    const { rows } = await t.services.db.$client.query<{ n: number }>(
      `select count(*)::int as n from notification_events where user_id = $1`,
      [trader.userId],
    );
    expect(rows[0]?.n).toBeGreaterThan(40);
  });
});
