// The PostgreSQL paper store commits an account's queued transactions together: fewer database
// transactions, callers answered only after the commit, one work's bad data failing only it.
import type { PaperAccount, PaperOrder, PaperStore } from '@router/brokers';
import { sampleAccount, sampleOrder } from '@router/brokers/paper/store-contract';
import type pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/postgres.ts';
import { createPostgresPaperStore } from './store.ts';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

/** Database transactions so far: each takes a pool connection. */
let transactions = 0;
const count = () => {
  transactions += 1;
};
beforeAll(() => {
  database.pool.on('acquire', count);
});
afterAll(() => {
  database.pool.off('acquire', count);
});

let accounts = 0;
/** A new account, stored; counting starts after it. */
async function openAccount(store: PaperStore): Promise<string> {
  accounts += 1;
  const id = `PA-GROUP${accounts}`;
  await store.transaction(id, (tx) => tx.putAccount(sampleAccount(id, 0)));
  transactions = 0;
  return id;
}

/** Adds 1 to the account's cash and places order `n` (client order id `signal-n` by default). */
function place(store: PaperStore, id: string, n: number, fields: Partial<PaperOrder> = {}) {
  return store.transaction(id, async (tx) => {
    const account = await tx.getAccount();
    if (!account) throw new Error('missing account');
    await tx.putAccount({ ...account, cash: account.cash + 1 });
    await tx.putOrder(sampleOrder(id, `${id}-${n}`, { clientOrderId: `signal-${n}`, ...fields }));
    return account.cash + 1;
  });
}

const cashOf = async (store: PaperStore, id: string) => (await store.transaction(id, (tx) => tx.getAccount()))?.cash;

/** Runs `hook` with the text of every query sent through the pool, before it is sent. */
function interceptQueries(pool: pg.Pool, hook: (text: string) => Promise<void> | void): () => void {
  let active = true;
  const wrap = (client: pg.PoolClient) => {
    const query = client.query.bind(client) as (...args: unknown[]) => Promise<unknown>;
    const intercepted = async (...args: unknown[]) => {
      const [first] = args;
      const text = typeof first === 'string' ? first : (first as { text?: unknown } | undefined)?.text;
      if (active && typeof text === 'string') await hook(text);
      return query(...args);
    };
    Object.assign(client, { query: intercepted });
  };
  pool.on('acquire', wrap);
  return () => {
    active = false;
    pool.off('acquire', wrap);
  };
}

/** Runs `hook` before every COMMIT sent through the pool: it may wait, or throw to fail it. */
const interceptCommits = (pool: pg.Pool, hook: () => Promise<void>) =>
  interceptQueries(pool, (text) => (text === 'commit' ? hook() : undefined));

describe('PostgreSQL paper store, group commit', () => {
  let store: PaperStore;
  beforeEach(() => {
    store = createPostgresPaperStore(database.db, { maxBatch: 10 });
  });

  it('runs the transactions queued on an account in few database transactions', async () => {
    const id = await openAccount(store);
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => place(store, id, i + 1)));
    // All 50 queue before the first batch starts; batches of at most 10.
    expect(transactions).toBe(5);
    expect(results).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(await cashOf(store, id)).toBe(50);
  });

  it('reads the client order ids a batch announced in one query, not one per order', async () => {
    const id = await openAccount(store);
    await place(store, id, 1);
    const lookups: string[] = [];
    const stop = interceptQueries(database.pool, (text) => {
      if (text.includes('client_order_id') && text.trimStart().startsWith('select')) lookups.push(text);
    });
    const hinted = (n: number) =>
      store.transaction(id, async (tx) => (await tx.findOrderByClientId(`signal-${n}`))?.id ?? null, {
        clientOrderIds: [`signal-${n}`],
      });
    const found = await Promise.all([1, 2, 3, 4, 5].map(hinted));
    stop();
    expect(found).toEqual([`${id}-1`, null, null, null, null]);
    expect(lookups).toHaveLength(1);
  });

  it('commits the others of a batch when one of them throws, and nothing of that one', async () => {
    const id = await openAccount(store);
    const failing = store.transaction(id, async (tx) => {
      await tx.putAccount({ ...((await tx.getAccount()) as PaperAccount), cash: -100 });
      await tx.putOrder(sampleOrder(id, `${id}-bad`, { clientOrderId: 'bad' }));
      throw new Error('boom');
    });
    const results = await Promise.allSettled([place(store, id, 1), failing, place(store, id, 2)]);
    expect(transactions).toBe(1);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(await cashOf(store, id)).toBe(2);
    expect(await store.transaction(id, (tx) => tx.findOrderByClientId('bad'))).toBeNull();
  });

  it('refuses, inside the batch, the second order with a client order id', async () => {
    const id = await openAccount(store);
    const results = await Promise.allSettled([
      place(store, id, 1),
      place(store, id, 2, { clientOrderId: 'signal-1' }),
      place(store, id, 3),
    ]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(String((results[1] as PromiseRejectedResult).reason)).toContain('client order id signal-1 already used');
    // Found before writing: no failed commit, no transactions run again alone.
    expect(transactions).toBe(1);
    expect(await cashOf(store, id)).toBe(2);
  });

  it('answers no caller before the commit', async () => {
    const id = await openAccount(store);
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let reachedCommit = () => {};
    const committing = new Promise<void>((resolve) => {
      reachedCommit = resolve;
    });
    const stop = interceptCommits(database.pool, async () => {
      reachedCommit();
      await gate;
    });
    try {
      let answered = 0;
      const calls = Array.from({ length: 5 }, (_, i) => place(store, id, i + 1).finally(() => answered++));
      await committing;
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(answered).toBe(0);
      release();
      await Promise.all(calls);
      expect(answered).toBe(5);
    } finally {
      stop();
    }
  });

  it('fails every transaction of a batch whose commit fails, and keeps none of them', async () => {
    const id = await openAccount(store);
    const lost = new Error('connection lost');
    const stop = interceptCommits(database.pool, async () => {
      throw lost;
    });
    let results: PromiseSettledResult<number>[];
    try {
      results = await Promise.allSettled([1, 2, 3].map((n) => place(store, id, n)));
    } finally {
      stop();
    }
    expect(results.map((result) => (result.status === 'rejected' ? result.reason : 'fulfilled'))).toEqual([
      lost,
      lost,
      lost,
    ]);
    expect(await cashOf(store, id)).toBe(0);
  });

  it('fails only the transaction whose data the database refuses; the others commit', async () => {
    const id = await openAccount(store);
    // jsonb takes no \u0000: the batch's statement fails, then each runs alone.
    const results = await Promise.allSettled([
      place(store, id, 1),
      place(store, id, 2, { symbol: 'A\u0000' }),
      place(store, id, 3),
    ]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(transactions).toBe(4);
    expect(await cashOf(store, id)).toBe(2);
    expect(await store.transaction(id, (tx) => tx.getOrder(`${id}-2`))).toBeNull();
  });

  it('fails a transaction whose read the database refused, even when its work went on', async () => {
    const id = await openAccount(store);
    const swallowing = store.transaction(id, async (tx) => {
      await tx.getOrder('A\u0000').catch(() => null);
      await tx.putAccount({ ...((await tx.getAccount()) as PaperAccount), cash: -100 });
    });
    const results = await Promise.allSettled([place(store, id, 1), swallowing, place(store, id, 2)]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(await cashOf(store, id)).toBe(2);
  });
});
