// The PaperStore contract of packages/brokers, on PostgreSQL (a fresh test database).
import { describePaperStoreContract } from '@router/brokers/paper/store-contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/postgres.ts';
import { createPostgresPaperStore } from './store.ts';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

describePaperStoreContract('postgres', async () => ({ store: createPostgresPaperStore(database.db) }));

describe('PostgreSQL paper store', () => {
  it('keeps state across store instances (a restart)', async () => {
    const first = createPostgresPaperStore(database.db);
    await first.transaction('PA-RESTART', (tx) =>
      tx.putAccount({
        id: 'PA-RESTART',
        name: 'Paper account',
        currency: 'USD',
        startingCash: 10,
        cash: 7.25,
        positions: [{ symbol: 'AAPL', class: 'stock', quantity: 0.1, averagePrice: 123.45 }],
        priceScales: { AAPL: 1.0001 },
        createdAt: 1,
        reserved: 0,
        orderSequence: 3,
      }),
    );
    const second = createPostgresPaperStore(database.db);
    const account = await second.transaction('PA-RESTART', (tx) => tx.getAccount());
    expect(account?.cash).toBe(7.25);
    expect(account?.positions[0]).toEqual({ symbol: 'AAPL', class: 'stock', quantity: 0.1, averagePrice: 123.45 });
  });

  it('serializes one account across two store instances (two servers)', async () => {
    const [a, b] = [createPostgresPaperStore(database.db), createPostgresPaperStore(database.db)];
    const id = 'PA-TWO';
    await a.transaction(id, (tx) =>
      tx.putAccount({
        id,
        name: 'x',
        currency: 'USD',
        startingCash: 0,
        cash: 0,
        positions: [],
        priceScales: {},
        createdAt: 1,
        reserved: 0,
        orderSequence: 0,
      }),
    );
    const bump = (store: typeof a) =>
      store.transaction(id, async (tx) => {
        const account = await tx.getAccount();
        if (!account) throw new Error('missing');
        await new Promise((resolve) => setTimeout(resolve, 2));
        await tx.putAccount({ ...account, cash: account.cash + 1 });
      });
    await Promise.all(Array.from({ length: 8 }, (_, i) => bump(i % 2 ? a : b)));
    expect((await a.transaction(id, (tx) => tx.getAccount()))?.cash).toBe(8);
  });
});
