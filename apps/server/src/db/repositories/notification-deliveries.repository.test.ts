// The worker's claim walks the due deliveries in order and stops: the versions that deliveries
// left behind in the due index (until vacuum) are passed once, not read on every round.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticateAsUserId, startTestApp, type TestApp } from '../../../test/app.ts';
import { createSetting } from '../../../test/notification-fixtures.ts';
import { setupTrader } from '../../../test/signal-fixtures.ts';
import { claimDueDeliveries } from './notification-deliveries.repository.ts';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({ authenticate: authenticateAsUserId });
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
    await pool.query('analyze notification_deliveries');

    const claim = () =>
      t.services.db.transaction(async (tx) => {
        const reads = async () => {
          const { rows } = await tx.execute<{ read: string }>(sql`
            select pg_stat_get_xact_tuples_returned('notification_deliveries_due_idx'::regclass) as read`);
          return Number(rows[0]?.read);
        };
        const before = await reads();
        const claimed = await claimDueDeliveries(tx, 200);
        return { claimed: claimed.length, read: (await reads()) - before };
      });
    expect((await claim()).claimed).toBe(5);
    const again = await claim();
    expect(again.claimed).toBe(5);
    expect(again.read).toBeLessThan(200);
  });
});
