// Migration 0034 on events queued before hook.shortKey (a webhook URL's secret, which places
// orders) was left out of their data: the key is dropped from the stored events, the rest kept,
// so no delivery (nor anything else reading the events) can ever pass it on.
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseBefore } from '../../test/migrations-before.ts';
import { runMigrations } from './migrate.ts';

let database: Awaited<ReturnType<typeof databaseBefore>>;
let pool: pg.Pool;

beforeAll(async () => {
  database = await databaseBefore('migration', '0034_drop_event_short_key');
  pool = database.pool;
});

afterAll(() => database.drop());

describe('migration 0034 (stored events lose the webhook URL key)', () => {
  it("drops hook.shortKey from every stored event's data, and nothing else", async () => {
    await pool.query(`insert into users (key, email, "group") values ('u1', 'short@example.com', 4)`);
    await pool.query(
      `insert into notification_events (id, user_id, type, data)
       select e.id, u.id, e.type, e.data::jsonb from users u, (values
         ('msg_1', 'signal.refused', '{"hook": {"key": "h1", "name": "Main", "shortKey": "SECRETkey0001"}, "reason": "invalid"}'),
         ('msg_2', 'order.placed', '{"hook": {"key": "h2", "name": "Other"}, "status": "filled"}'),
         ('msg_3', 'credits.low', '{"balance": 2, "threshold": 2}')) as e(id, type, data)`,
    );

    await runMigrations(pool);

    const { rows } = await pool.query<{ id: string; data: unknown }>(
      'select id, data from notification_events order by id',
    );
    expect(rows).toEqual([
      { id: 'msg_1', data: { hook: { key: 'h1', name: 'Main' }, reason: 'invalid' } },
      { id: 'msg_2', data: { hook: { key: 'h2', name: 'Other' }, status: 'filled' } },
      { id: 'msg_3', data: { balance: 2, threshold: 2 } },
    ]);
  });
});
