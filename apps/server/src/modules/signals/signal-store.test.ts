import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { balanceOf, setupTrader, signalRows } from '../../../test/signal-fixtures.ts';
import { isUnstorableInput, type NewSignal } from '../../db/repositories/signals.repository.ts';
import { SignalStore } from './signal-store.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

/** The pool, counting the store statements sent through it. */
function countingPool(pool: pg.Pool) {
  const counts = { store: 0 };
  const query = (config: unknown, ...rest: unknown[]) => {
    if ((config as { name?: string })?.name === 'signals_store') counts.store++;
    return (pool.query as (...args: unknown[]) => unknown)(config, ...rest);
  };
  return { pool: new Proxy(pool, { get: (p, k) => (k === 'query' ? query : Reflect.get(p, k)) }), counts };
}

let serial = 0;
async function trader(email: string, credits: number, isTest = false) {
  const tr = await setupTrader(t, email, { credits, isTest });
  const { rows } = await t.services.db.$client.query<{ id: string; connector_id: string }>(
    'select id, connector_id from hooks where short_key = $1',
    [tr.shortKey],
  );
  const row = rows[0];
  if (!row) throw new Error('hook not found');
  const signal = (key: string, request = '{"symbol":"AAPL","action":"buy","quantity":1}'): NewSignal => ({
    id: `sig-${++serial}`,
    hookId: Number(row.id),
    key,
    userId: tr.userId,
    isTest,
    connectorId: Number(row.connector_id),
    accountId: tr.accountId,
    providerName: 'paper',
    request,
    order: '{}',
    response: isTest ? '{"status":"draft"}' : null,
    address: null,
  });
  return { ...tr, signal };
}

describe('SignalStore', () => {
  it('stores a burst in a few statements, each caller answered with its own id', async () => {
    const tr = await trader('batch@example.com', 1_000);
    const { pool, counts } = countingPool(t.services.db.$client);
    const store = new SignalStore(pool, 60);
    const signals = Array.from({ length: 200 }, (_, i) => tr.signal(`h:${i}`));
    const results = await Promise.all(signals.map((s) => store.store(s)));
    expect(results).toEqual(signals.map((s) => ({ owner: s.id })));
    expect(counts.store).toBeGreaterThan(0);
    expect(counts.store).toBeLessThanOrEqual(4);
    expect(await signalRows(t, tr.userId)).toHaveLength(200);
    expect(await balanceOf(t, tr.userId)).toBe(800);
  });

  it('gives one key to the first of a burst and the rest its id, with one credit', async () => {
    const tr = await trader('same-key@example.com', 10);
    const store = new SignalStore(t.services.db.$client, 60);
    const signals = Array.from({ length: 20 }, () => tr.signal('c:alert-1'));
    const results = await Promise.all(signals.map((s) => store.store(s)));
    expect(new Set(results.map((r) => ('owner' in r ? r.owner : 'none')))).toEqual(new Set([signals[0]?.id]));
    expect(await signalRows(t, tr.userId)).toHaveLength(1);
    expect(await balanceOf(t, tr.userId)).toBe(9);
  });

  it('rations credits in arrival order when a burst outruns them, claiming no key for the rest', async () => {
    const tr = await trader('short@example.com', 3);
    const other = await trader('plenty@example.com', 100);
    const store = new SignalStore(t.services.db.$client, 60);
    const mine = Array.from({ length: 8 }, (_, i) => tr.signal(`h:${i}`));
    const theirs = Array.from({ length: 8 }, (_, i) => other.signal(`h:${i}`));
    const results = await Promise.all([...mine, ...theirs].map((s) => store.store(s)));
    expect(results.slice(0, 8)).toEqual([
      ...mine.slice(0, 3).map((s) => ({ owner: s.id })),
      ...Array.from({ length: 5 }, () => ({ noCredit: true })),
    ]);
    expect(results.slice(8)).toEqual(theirs.map((s) => ({ owner: s.id })));
    expect(await balanceOf(t, tr.userId)).toBe(0);
    expect(await balanceOf(t, other.userId)).toBe(92);
    // A refused signal left no claim: with a credit bought, the same key is stored anew.
    await t.services.db.$client.query('update accounts set balance = 1 where user_id = $1', [tr.userId]);
    const retry = tr.signal('h:5');
    expect(await store.store(retry)).toEqual({ owner: retry.id });
    // And a repeat of a stored one needs no credit.
    const repeat = tr.signal('h:0');
    expect(await store.store(repeat)).toEqual({ owner: mine[0]?.id });
    expect(await signalRows(t, tr.userId)).toHaveLength(4);
  });

  it('refuses only the signal the database cannot store, not its batch', async () => {
    const tr = await trader('unstorable@example.com', 10, true);
    const store = new SignalStore(t.services.db.$client, 60);
    const good = [tr.signal('h:a'), tr.signal('h:b')];
    const bad = tr.signal('h:bad', '{"symbol":"\\u0000"}');
    const settled = await Promise.allSettled([good[0], bad, good[1]].map((s) => store.store(s as NewSignal)));
    expect(settled[0]).toEqual({ status: 'fulfilled', value: { owner: good[0]?.id } });
    expect(settled[2]).toEqual({ status: 'fulfilled', value: { owner: good[1]?.id } });
    expect(settled[1]?.status).toBe('rejected');
    expect(isUnstorableInput((settled[1] as PromiseRejectedResult).reason)).toBe(true);
    const rows = await signalRows(t, tr.userId);
    expect(rows.map((r) => r.status).sort()).toEqual(['draft', 'draft']);
    expect(await balanceOf(t, tr.userId)).toBe(10);
  });

  it('keeps the signals of a deleted hook (hook unset) and drops its keys; drops those of a deleted user', async () => {
    const tr = await trader('deleting@example.com', 10);
    const store = new SignalStore(t.services.db.$client, 60);
    const signal = tr.signal('c:kept');
    await store.store(signal);
    const db = t.services.db.$client;
    await db.query('delete from hooks where id = $1', [signal.hookId]);
    const { rows } = await db.query('select hook_id from signals where id = $1', [signal.id]);
    expect(rows).toEqual([{ hook_id: null }]);
    const keys = await db.query('select 1 from signal_keys where hook_id = $1', [signal.hookId]);
    expect(keys.rowCount).toBe(0);
    await db.query('delete from users where id = $1', [tr.userId]);
    expect(await signalRows(t, tr.userId)).toHaveLength(0);
  });
});
