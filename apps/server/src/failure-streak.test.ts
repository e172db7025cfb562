// Background jobs through an outage of the database (its tables held by another session, so
// their statements time out, try after try): each job logs the start of the failures once, not
// once a try, recovers by itself when the database is back, with what it kept, and says so once.
import pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../test/app.ts';
import { flakyBroker, setupTrader } from '../test/signal-fixtures.ts';
import { createDatabase } from './db/client.ts';
import { createNotificationWorker } from './modules/notifications/worker.ts';
import { ActivityWriter } from './modules/signals/activity-writer.ts';
import { startReconciler } from './modules/signals/reconcile.ts';
import type { Services } from './services.ts';

let t: TestApp;
const flaky = flakyBroker();
beforeAll(async () => {
  t = await startTestApp({ brokers: [flaky.broker], notifications: { pollMs: 600_000 } });
});
afterAll(() => t.close());

/** Services whose pool gives up on a statement after 300 ms, logging into `lines`. */
function outageServices() {
  const connectionString = (t.services.db.$client.options as { connectionString: string }).connectionString;
  const pool = new pg.Pool({ connectionString, max: 4, statement_timeout: 300 });
  const lines: Array<{ level: number; msg: string }> = [];
  const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  const services: Services = { ...t.services, db: createDatabase(pool), log };
  const said = (msg: string) => lines.filter((line) => line.msg === msg).length;
  return { services, pool, lines, said };
}

/** Holds `tables` (another session's lock) until the returned function is called (again: nothing). */
async function outage(tables: string): Promise<() => Promise<void>> {
  const locker = await t.services.db.$client.connect();
  await locker.query('begin');
  await locker.query(`lock table ${tables} in access exclusive mode`);
  let held = true;
  return async () => {
    if (!held) return;
    held = false;
    await locker.query('commit');
    locker.release();
  };
}

describe('an outage of the database', () => {
  it('the reconciler: one error for its failing passes, then settles the signal and says it works again', async () => {
    const { services, pool, said } = outageServices();
    const trader = await setupTrader(t, 'outage-reconcile@example.com', { provider: 'flaky' });
    const { rows } = await t.services.db.$client.query<{ id: string }>('select id from connectors where key = $1', [
      trader.connector.key,
    ]);
    await t.services.db.$client.query(
      `insert into signals (id, user_id, hook_id, connector_id, account_id, provider_name, status, credit_held)
      values ('outageReconcile00001', $1, $2, $3, 'F-1', 'flaky', 'placing', true)`,
      [trader.userId, trader.hook.id, Number(rows[0]?.id)],
    );
    flaky.orders.set('outageReconcile00001', { id: 'O-1', status: 'filled' });
    const end = await outage('signals');
    const reconciler = startReconciler(services, {
      owner: 'outage',
      inFlight: { ids: () => [] },
      staleAfterMs: 0,
      intervalMs: 600_000,
    });
    try {
      for (let i = 0; i < 4; i++) expect(await reconciler.runOnce()).toBe(0);
      expect(said('reconciliation pass failed')).toBe(1);
      await end();
      expect(await reconciler.runOnce()).toBe(1);
      expect(await reconciler.runOnce()).toBe(0);
      expect(said('reconciliation pass failed')).toBe(1);
      expect(said('reconciliation pass failed: working again')).toBe(1);
      const status = await t.services.db.$client.query('select status from signals where id = $1', [
        'outageReconcile00001',
      ]);
      expect(status.rows).toEqual([{ status: 'filled' }]);
    } finally {
      await end();
      await reconciler.stop();
      await pool.end();
    }
  });

  it('the notification worker: one error for its failing rounds, then says it works again', async () => {
    const { services, pool, said } = outageServices();
    const worker = createNotificationWorker(services);
    const end = await outage('notification_deliveries');
    try {
      for (let i = 0; i < 4; i++) await worker.drain();
      expect(said('notification delivery round failed')).toBe(1);
      await end();
      await worker.drain();
      await worker.drain();
      expect(said('notification delivery round failed')).toBe(1);
      expect(said('notification delivery round failed: working again')).toBe(1);
    } finally {
      await end();
      await worker.stop();
      await pool.end();
    }
  });

  it('the activity writer: one error for the tries of its kept batch, then writes it and says so once', async () => {
    const { services, pool, said } = outageServices();
    const trader = await setupTrader(t, 'outage-writer@example.com');
    const writer = new ActivityWriter(pool, services.log);
    const end = await outage('actions');
    try {
      for (let i = 0; i < 4; i++) {
        writer.action({
          userId: trader.userId,
          code: 'Order',
          address: null,
          metadata: { n: i },
          createdAt: new Date(),
        });
        await writer.flush();
      }
      const held = 'hook activity not written yet: kept for the next try';
      expect(said(held)).toBe(1);
      await end();
      await writer.flush();
      await writer.flush();
      expect(said(held)).toBe(1);
      expect(said(`${held}: working again`)).toBe(1);
      const entries = await t.services.db.$client.query(`select 1 from actions where user_id = $1 and code = 'Order'`, [
        trader.userId,
      ]);
      expect(entries.rows).toHaveLength(4);
    } finally {
      await end();
      writer.close();
      await pool.end();
    }
  });
});
