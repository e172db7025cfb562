// Migration 0021 on deliveries written before it: each gets its event's type, and the digest's
// look-ups by kind then find them.
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseBefore } from '../../test/migrations-before.ts';
import { runMigrations } from './migrate.ts';

let database: Awaited<ReturnType<typeof databaseBefore>>;
let pool: pg.Pool;

beforeAll(async () => {
  database = await databaseBefore('migration', '0021_notification_delivery_kind');
  pool = database.pool;
});

afterAll(() => database.drop());

describe('migration 0021 (deliveries keep their event type)', () => {
  it("fills each existing delivery's type from its event and then requires one", async () => {
    await pool.query(`insert into users (key, email, "group") values ('u1', 'kind@example.com', 4)`);
    await pool.query(`insert into connectors (key, user_id, provider_name) select 'c1', id, 'paper' from users`);
    await pool.query(
      `insert into notifications (key, user_id, connector_id, account_id, type, metadata)
       select 'n1', user_id, id, 'A1', 2, '{"email": "kind@example.com"}' from connectors`,
    );
    await pool.query(
      `insert into notification_events (id, user_id, connector_id, account_id, type, data)
       select e.id, c.user_id, c.id, 'A1', e.type, '{}' from connectors c,
         (values ('msg_1', 'order.placed'), ('msg_2', 'order.filled')) as e(id, type)`,
    );
    await pool.query(
      `insert into notification_deliveries (event_id, notification_id)
       select e.id, n.id from notification_events e, notifications n`,
    );

    await runMigrations(pool);

    const { rows } = await pool.query<{ event_id: string; type: string }>(
      'select event_id, type from notification_deliveries order by event_id',
    );
    expect(rows).toEqual([
      { event_id: 'msg_1', type: 'order.placed' },
      { event_id: 'msg_2', type: 'order.filled' },
    ]);
    await expect(
      pool.query(
        `insert into notification_deliveries (event_id, notification_id) select 'msg_1', id from notifications`,
      ),
    ).rejects.toMatchObject({ code: '23502' });
  });
});
