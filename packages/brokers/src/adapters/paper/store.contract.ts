// The behaviour every PaperStore must have. The memory store runs it in store.test.ts; the
// server's PostgreSQL store runs it too:
//   describePaperStoreContract('postgres', async () => ({ store, cleanup }))
import { afterEach, describe, expect, it } from 'vitest';
import type { PaperStore } from './store.ts';
import type { PaperAccount, PaperOrder, PaperSymbolState } from './types.ts';

export interface PaperStoreFixture {
  store: PaperStore;
  cleanup?: () => Promise<void>;
}

let sequence = 0;
/** Unique ids, so a store over a shared database can run the suite repeatedly. */
function uniqueId(prefix: string): string {
  sequence += 1;
  return `${prefix}-${Date.now().toString(36)}-${sequence}`;
}

export function sampleAccount(id: string, cash = 1000): PaperAccount {
  return {
    id,
    name: 'Paper account',
    currency: 'USD',
    startingCash: cash,
    cash,
    positions: [],
    priceScales: {},
    createdAt: 1,
    reserved: 0,
    orderSequence: 0,
  };
}

export function sampleOrder(accountId: string, id: string, overrides: Partial<PaperOrder> = {}): PaperOrder {
  return {
    id,
    accountId,
    symbol: 'AAPL',
    class: 'stock',
    action: 'buy',
    side: 'buy',
    quantity: 1,
    type: 'limit',
    limitPrice: 100,
    duration: 'gtc',
    status: 'open',
    statusDescription: 'Accepted',
    createdAt: 1,
    reservation: 100,
    ...overrides,
  };
}

export function describePaperStoreContract(name: string, makeStore: () => Promise<PaperStoreFixture>): void {
  describe(`PaperStore contract: ${name}`, () => {
    let fixture: PaperStoreFixture | undefined;
    const store = async (): Promise<PaperStore> => {
      fixture = await makeStore();
      return fixture.store;
    };
    afterEach(async () => {
      await fixture?.cleanup?.();
      fixture = undefined;
    });

    it('reads back what a committed transaction wrote, and nothing for an unknown account', async () => {
      const paper = await store();
      const id = uniqueId('PA');
      expect(await paper.transaction(id, (tx) => tx.getAccount())).toBeNull();
      const order = sampleOrder(id, `${id}-1`, { clientOrderId: uniqueId('signal') });
      await paper.transaction(id, async (tx) => {
        await tx.putAccount(sampleAccount(id));
        await tx.putOrder(order);
      });
      await paper.transaction(id, async (tx) => {
        expect(await tx.getAccount()).toEqual(sampleAccount(id));
        expect(await tx.getOrder(order.id)).toEqual(order);
        expect(await tx.findOrderByClientId(order.clientOrderId ?? '')).toEqual(order);
        expect(await tx.findOrderByClientId('nope')).toBeNull();
        expect(await tx.getOrder('nope')).toBeNull();
      });
    });

    it('sees its own writes before commit', async () => {
      const paper = await store();
      const id = uniqueId('PA');
      await paper.transaction(id, async (tx) => {
        await tx.putAccount(sampleAccount(id, 5));
        await tx.putOrder(sampleOrder(id, `${id}-1`, { clientOrderId: 'own' }));
        expect((await tx.getAccount())?.cash).toBe(5);
        expect((await tx.findOrderByClientId('own'))?.id).toBe(`${id}-1`);
        expect(await tx.listOpenOrders()).toHaveLength(1);
      });
    });

    it('discards every write of a transaction that throws', async () => {
      const paper = await store();
      const id = uniqueId('PA');
      await paper.transaction(id, (tx) => tx.putAccount(sampleAccount(id, 1000)));
      const failing = paper.transaction(id, async (tx) => {
        await tx.putAccount({ ...sampleAccount(id), cash: 0 });
        await tx.putOrder(sampleOrder(id, `${id}-1`));
        throw new Error('boom');
      });
      await expect(failing).rejects.toThrow('boom');
      await paper.transaction(id, async (tx) => {
        expect((await tx.getAccount())?.cash).toBe(1000);
        expect(await tx.getOrder(`${id}-1`)).toBeNull();
      });
    });

    it('lists only open orders, oldest first, and follows status changes', async () => {
      const paper = await store();
      const id = uniqueId('PA');
      await paper.transaction(id, async (tx) => {
        await tx.putAccount(sampleAccount(id));
        await tx.putOrder(sampleOrder(id, `${id}-2`, { createdAt: 20 }));
        await tx.putOrder(sampleOrder(id, `${id}-1`, { createdAt: 10 }));
        await tx.putOrder(sampleOrder(id, `${id}-3`, { status: 'filled', createdAt: 5 }));
      });
      await paper.transaction(id, async (tx) => {
        expect((await tx.listOpenOrders()).map((order) => order.id)).toEqual([`${id}-1`, `${id}-2`]);
        await tx.putOrder(sampleOrder(id, `${id}-1`, { createdAt: 10, status: 'canceled' }));
      });
      await paper.transaction(id, async (tx) => {
        expect((await tx.listOpenOrders()).map((order) => order.id)).toEqual([`${id}-2`]);
      });
    });

    it('keeps accounts apart: orders and client order ids belong to one account', async () => {
      const paper = await store();
      const [a, b] = [uniqueId('PA'), uniqueId('PB')];
      const clientOrderId = uniqueId('signal');
      for (const id of [a, b]) await paper.transaction(id, (tx) => tx.putAccount(sampleAccount(id)));
      await paper.transaction(a, (tx) => tx.putOrder(sampleOrder(a, `${a}-1`, { clientOrderId })));
      await paper.transaction(b, async (tx) => {
        expect(await tx.findOrderByClientId(clientOrderId)).toBeNull();
        expect(await tx.getOrder(`${a}-1`)).toBeNull();
        expect(await tx.listOpenOrders()).toEqual([]);
      });
    });

    it('refuses a second order with the same client order id on one account', async () => {
      const paper = await store();
      const id = uniqueId('PA');
      await paper.transaction(id, async (tx) => {
        await tx.putAccount(sampleAccount(id));
        await tx.putOrder(sampleOrder(id, `${id}-1`, { clientOrderId: 'twice' }));
      });
      const second = paper.transaction(id, (tx) => tx.putOrder(sampleOrder(id, `${id}-2`, { clientOrderId: 'twice' })));
      await expect(second).rejects.toThrow();
      expect((await paper.transaction(id, (tx) => tx.findOrderByClientId('twice')))?.id).toBe(`${id}-1`);
    });

    it('gives concurrent transactions what those before them wrote, and nothing of one that throws', async () => {
      const paper = await store();
      const id = uniqueId('PA');
      await paper.transaction(id, (tx) => tx.putAccount(sampleAccount(id, 0)));
      const place = (n: number, fail = false) =>
        paper.transaction(id, async (tx) => {
          const account = await tx.getAccount();
          if (!account) throw new Error('missing account');
          await tx.putAccount({ ...account, cash: account.cash + 1 });
          await tx.putOrder(sampleOrder(id, `${id}-${n}`, { clientOrderId: `signal-${n}`, createdAt: n }));
          if (fail) throw new Error(`boom ${n}`);
          return (await tx.listOpenOrders()).map((order) => order.id);
        });
      const results = await Promise.allSettled([place(1), place(2), place(3, true), place(4)]);
      expect(results.map((result) => (result.status === 'fulfilled' ? result.value : String(result.reason)))).toEqual([
        [`${id}-1`],
        [`${id}-1`, `${id}-2`],
        'Error: boom 3',
        [`${id}-1`, `${id}-2`, `${id}-4`],
      ]);
      await paper.transaction(id, async (tx) => {
        expect((await tx.getAccount())?.cash).toBe(3);
        expect(await tx.getOrder(`${id}-3`)).toBeNull();
        expect(await tx.findOrderByClientId('signal-3')).toBeNull();
      });
    });

    it('refuses a client order id a concurrent transaction before it used', async () => {
      const paper = await store();
      const id = uniqueId('PA');
      await paper.transaction(id, (tx) => tx.putAccount(sampleAccount(id)));
      const put = (n: number, clientOrderId: string) =>
        paper.transaction(id, (tx) => tx.putOrder(sampleOrder(id, `${id}-${n}`, { clientOrderId })));
      const results = await Promise.allSettled([put(1, 'twice'), put(2, 'twice'), put(3, 'once')]);
      expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      await paper.transaction(id, async (tx) => {
        expect((await tx.findOrderByClientId('twice'))?.id).toBe(`${id}-1`);
        expect(await tx.getOrder(`${id}-2`)).toBeNull();
      });
    });

    it('finds an order by its current client order id only', async () => {
      const paper = await store();
      const id = uniqueId('PA');
      await paper.transaction(id, async (tx) => {
        await tx.putAccount(sampleAccount(id));
        await tx.putOrder(sampleOrder(id, `${id}-1`, { clientOrderId: 'first' }));
      });
      const renamed = paper.transaction(id, (tx) =>
        tx.putOrder(sampleOrder(id, `${id}-1`, { clientOrderId: 'second' })),
      );
      const reused = paper.transaction(id, (tx) => tx.putOrder(sampleOrder(id, `${id}-2`, { clientOrderId: 'first' })));
      await Promise.all([renamed, reused]);
      await paper.transaction(id, async (tx) => {
        expect((await tx.findOrderByClientId('first'))?.id).toBe(`${id}-2`);
        expect((await tx.findOrderByClientId('second'))?.id).toBe(`${id}-1`);
      });
    });

    it('returns copies: changing a value read does not change the store', async () => {
      const paper = await store();
      const id = uniqueId('PA');
      await paper.transaction(id, (tx) => tx.putAccount(sampleAccount(id, 1000)));
      await paper.transaction(id, async (tx) => {
        const account = await tx.getAccount();
        if (account) account.cash = 1;
      });
      expect((await paper.transaction(id, (tx) => tx.getAccount()))?.cash).toBe(1000);
    });

    it('runs transactions on one account one at a time (no lost updates)', async () => {
      const paper = await store();
      const id = uniqueId('PA');
      await paper.transaction(id, (tx) => tx.putAccount(sampleAccount(id, 0)));
      const increments = Array.from({ length: 25 }, () =>
        paper.transaction(id, async (tx) => {
          const account = await tx.getAccount();
          if (!account) throw new Error('missing account');
          await new Promise((resolve) => setTimeout(resolve, 1));
          await tx.putAccount({ ...account, cash: account.cash + 1 });
        }),
      );
      await Promise.all(increments);
      expect((await paper.transaction(id, (tx) => tx.getAccount()))?.cash).toBe(25);
    });

    it('does not hold one account up behind another', async () => {
      const paper = await store();
      const [a, b] = [uniqueId('PA'), uniqueId('PB')];
      for (const id of [a, b]) await paper.transaction(id, (tx) => tx.putAccount(sampleAccount(id)));
      let release = () => {};
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      const blocked = paper.transaction(a, () => gate);
      const other = await paper.transaction(b, async (tx) => (await tx.getAccount())?.id);
      expect(other).toBe(b);
      release();
      await blocked;
    });

    it('lists open orders of one symbol, and finds those a price range reached through its levels', async () => {
      const paper = await store();
      const id = uniqueId('PA');
      const limit = (n: number, side: 'buy' | 'sell', limitPrice: number, symbol = 'AAPL') =>
        sampleOrder(id, `${id}-${n}`, { side, action: side, limitPrice, symbol, createdAt: n });
      await paper.transaction(id, async (tx) => {
        await tx.putAccount(sampleAccount(id));
        await tx.putOrder(limit(1, 'buy', 90));
        await tx.putOrder(limit(2, 'buy', 99));
        await tx.putOrder(limit(3, 'sell', 110));
        await tx.putOrder(limit(4, 'sell', 101));
        await tx.putOrder(limit(5, 'buy', 99, 'MSFT'));
        await tx.putOrder(
          sampleOrder(id, `${id}-6`, {
            type: 'stop',
            side: 'sell',
            action: 'sell',
            stopPrice: 98,
            limitPrice: undefined,
            createdAt: 6,
          }),
        );
        await tx.putOrder(
          sampleOrder(id, `${id}-7`, { limitPrice: 50, duration: 'day', expiresAt: 500, createdAt: 7 }),
        );
        await tx.putOrder(sampleOrder(id, `${id}-8`, { limitPrice: 100, status: 'filled', createdAt: 8 }));
      });
      await paper.transaction(id, async (tx) => {
        const ids = (orders: PaperOrder[]) => orders.map((order) => order.id.slice(id.length + 1)).sort();
        expect(ids(await tx.listOpenOrders('AAPL'))).toEqual(['1', '2', '3', '4', '6', '7']);
        expect(ids(await tx.listOpenOrders())).toEqual(['1', '2', '3', '4', '5', '6', '7']);
        // Prices between 98.5 and 100.5: the buy at 99 and the sell stop at 98 are not both reached.
        expect(ids(await tx.listReachedOrders('AAPL', { low: 98.5, high: 100.5 }))).toEqual(['2']);
        expect(ids(await tx.listReachedOrders('AAPL', { low: 97, high: 101 }))).toEqual(['2', '4', '6']);
        expect(ids(await tx.listReachedOrders('AAPL', { low: 100, high: 100, expiringBy: 500 }))).toEqual(['7']);
        // The transaction's own writes count.
        await tx.putOrder({ ...limit(2, 'buy', 99), status: 'canceled' });
        await tx.putOrder(limit(9, 'sell', 100.5));
        expect(ids(await tx.listReachedOrders('AAPL', { low: 98.5, high: 100.5 }))).toEqual(['9']);
      });
    });

    it('keeps symbol states and lists those with open orders', async () => {
      const paper = await store();
      const id = uniqueId('PA');
      const state = (symbol: string, open: number): PaperSymbolState => ({ symbol, class: 'stock', sweptAt: 5, open });
      await paper.transaction(id, async (tx) => {
        await tx.putAccount(sampleAccount(id));
        await tx.putSymbol(state('AAPL', 2));
        await tx.putSymbol({ ...state('MSFT', 0), expiresAt: 9 });
        expect((await tx.listActiveSymbols()).map((s) => s.symbol)).toEqual(['AAPL']);
      });
      await paper.transaction(id, async (tx) => {
        expect(await tx.getSymbol('AAPL')).toEqual(state('AAPL', 2));
        expect(await tx.getSymbol('MSFT')).toEqual({ ...state('MSFT', 0), expiresAt: 9 });
        expect(await tx.getSymbol('TSLA')).toBeNull();
        await tx.putSymbol(state('TSLA', 1));
        const active = (await tx.listActiveSymbols()).map((s) => s.symbol).sort();
        expect(active).toEqual(['AAPL', 'TSLA']);
      });
    });

    it('lists fills since an instant, newest first', async () => {
      const paper = await store();
      const id = uniqueId('PA');
      const filled = (n: number, filledAt: number) =>
        sampleOrder(id, `${id}-${n}`, { status: 'filled', fillPrice: 100, filledAt, createdAt: n });
      await paper.transaction(id, async (tx) => {
        await tx.putAccount(sampleAccount(id));
        for (const [n, at] of [
          [1, 10],
          [2, 30],
          [3, 20],
          [4, 40],
        ] as const)
          await tx.putOrder(filled(n, at));
        await tx.putOrder(sampleOrder(id, `${id}-5`));
      });
      await paper.transaction(id, async (tx) => {
        const fills = await tx.listFills(15, 2);
        expect(fills.map((order) => order.filledAt)).toEqual([40, 30]);
        expect((await tx.listFills(0, 10)).map((order) => order.filledAt)).toEqual([40, 30, 20, 10]);
      });
    });
  });
}
