// Migration 0010 gives paper orders written before it their symbol, reach levels, expiry and
// fill time, a state per symbol with open orders, and accounts what their open orders hold.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import type { PaperOrder, PaperStore } from '@router/brokers';
import { sampleOrder } from '@router/brokers/paper/store-contract';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { migrationsBefore } from '../../../test/migrations-before.ts';
import { withDatabase } from '../../../test/postgres.ts';
import { createDatabase, createPool } from '../../db/client.ts';
import { runMigrations } from '../../db/migrate.ts';
import { createPostgresPaperStore } from './store.ts';

const name = `migrate_${randomBytes(6).toString('hex')}`;
const serverUrl = inject('postgresUrl');
const pool = createPool(withDatabase(serverUrl, name), 2);

async function admin(query: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  await client.query(query).finally(() => client.end());
}

afterAll(async () => {
  await pool.end();
  await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
});

describe('migration 0010 (paper reach index)', () => {
  it('carries orders and accounts written before it over to the index', async () => {
    await admin(`CREATE DATABASE ${name}`);
    const old = migrationsBefore('0010_paper_reach_index');
    await runMigrations(pool, old);
    fs.rmSync(old, { recursive: true, force: true });
    const order = (n: number, fields: Partial<PaperOrder>) =>
      sampleOrder('PA-OLD', `PA-OLD-${n}`, { limitPrice: 90, createdAt: n, reservation: 90, ...fields });
    const orders = [
      order(1, {}),
      order(2, { side: 'sell', action: 'sell', limitPrice: 120, reservation: 0 }),
      order(3, { type: 'stop', side: 'buy', stopPrice: 130, limitPrice: undefined, reservation: 130 }),
      order(4, { type: 'stop_limit', side: 'sell', stopPrice: 80, limitPrice: 79, triggered: true, reservation: 0 }),
      order(5, { symbol: 'MSFT', duration: 'day', expiresAt: 5000, reservation: 10 }),
      order(6, { status: 'filled', fillPrice: 90, filledAt: 77, reservation: 0 }),
    ];
    const account = {
      id: 'PA-OLD',
      name: 'Paper account',
      currency: 'USD',
      startingCash: 1000,
      cash: 1000,
      positions: [],
      priceScales: {},
      createdAt: 1,
      sweptAt: 4242,
      orderSequence: 6,
    };
    await pool.query('insert into paper_accounts (id, data) values ($1, $2)', ['PA-OLD', account]);
    for (const o of orders) {
      await pool.query(
        'insert into paper_orders (account_id, id, status, created_at, data) values ($1, $2, $3, $4, $5)',
        ['PA-OLD', o.id, o.status, o.createdAt, o],
      );
    }
    await runMigrations(pool);

    const { rows } = await pool.query(
      'select id, symbol, reach_low, reach_high, expires_at, filled_at from paper_orders order by id',
    );
    expect(rows).toEqual([
      { id: 'PA-OLD-1', symbol: 'AAPL', reach_low: 90, reach_high: null, expires_at: null, filled_at: null },
      { id: 'PA-OLD-2', symbol: 'AAPL', reach_low: null, reach_high: 120, expires_at: null, filled_at: null },
      { id: 'PA-OLD-3', symbol: 'AAPL', reach_low: null, reach_high: 130, expires_at: null, filled_at: null },
      { id: 'PA-OLD-4', symbol: 'AAPL', reach_low: null, reach_high: 79, expires_at: null, filled_at: null },
      { id: 'PA-OLD-5', symbol: 'MSFT', reach_low: 90, reach_high: null, expires_at: '5000', filled_at: null },
      { id: 'PA-OLD-6', symbol: 'AAPL', reach_low: null, reach_high: null, expires_at: null, filled_at: '77' },
    ]);
    // Through the store, as the broker reads them.
    const store: PaperStore = createPostgresPaperStore(createDatabase(pool));
    await store.transaction('PA-OLD', async (tx) => {
      expect(await tx.getAccount()).toMatchObject({ reserved: 230, orderSequence: 6 });
      expect(await tx.getAccount()).not.toHaveProperty('sweptAt');
      expect(await tx.getSymbol('AAPL')).toEqual({ symbol: 'AAPL', class: 'stock', sweptAt: 4242, open: 4 });
      expect(await tx.getSymbol('MSFT')).toEqual({
        symbol: 'MSFT',
        class: 'stock',
        sweptAt: 4242,
        open: 1,
        expiresAt: 5000,
      });
      const reached = await tx.listReachedOrders('AAPL', { low: 95, high: 125 });
      expect(reached.map((o) => o.id).sort()).toEqual(['PA-OLD-2', 'PA-OLD-4']);
      expect((await tx.listFills(0, 10)).map((o) => o.id)).toEqual(['PA-OLD-6']);
    });
  });
});
