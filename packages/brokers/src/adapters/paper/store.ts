// Where the paper broker keeps its accounts and orders. The broker owns no database: the
// server injects a store (PostgreSQL), tests and single-process setups use the memory one.
import { copyAccount, copyOrder, type PaperAccount, type PaperOrder } from './types.ts';

/** Access to one account's state inside a transaction. Values returned are copies. */
export interface PaperStoreTransaction {
  getAccount(): Promise<PaperAccount | null>;
  putAccount(account: PaperAccount): Promise<void>;
  getOrder(orderId: string): Promise<PaperOrder | null>;
  /** The account's order placed with this client order id (our signal id), if any. */
  findOrderByClientId(clientOrderId: string): Promise<PaperOrder | null>;
  /** The account's orders with status 'open', oldest first. */
  listOpenOrders(): Promise<PaperOrder[]>;
  /** Inserts or replaces an order (by id). */
  putOrder(order: PaperOrder): Promise<void>;
}

/**
 * Transactions on one account run one at a time (a PostgreSQL store locks the account row
 * with SELECT … FOR UPDATE), so concurrent orders never spend the same cash twice. Writes
 * become visible when `work` resolves and are discarded when it throws.
 */
export interface PaperStore {
  transaction<T>(accountId: string, work: (tx: PaperStoreTransaction) => Promise<T>): Promise<T>;
}

interface AccountData {
  account: PaperAccount | null;
  orders: Map<string, PaperOrder>;
  byClientId: Map<string, string>;
  /** Ids of open orders, so listing them does not walk the account's whole history. */
  openIds: Set<string>;
}

/** An in-process store: a map of accounts and a per-account queue serializing transactions. */
export function createMemoryPaperStore(): PaperStore {
  const accounts = new Map<string, AccountData>();
  const queues = new Map<string, Promise<unknown>>();

  const dataOf = (accountId: string): AccountData => {
    let data = accounts.get(accountId);
    if (!data) {
      data = { account: null, orders: new Map(), byClientId: new Map(), openIds: new Set() };
      accounts.set(accountId, data);
    }
    return data;
  };

  async function run<T>(accountId: string, work: (tx: PaperStoreTransaction) => Promise<T>): Promise<T> {
    const data = dataOf(accountId);
    // Writes are buffered and applied on success only, which gives rollback for free.
    let account: PaperAccount | null | undefined;
    const orders = new Map<string, PaperOrder>();
    const current = (orderId: string) => orders.get(orderId) ?? data.orders.get(orderId);
    const copy = (order: PaperOrder | undefined): PaperOrder | null => (order ? copyOrder(order) : null);
    const tx: PaperStoreTransaction = {
      getAccount: async () => {
        const seen = account === undefined ? data.account : account;
        return seen ? copyAccount(seen) : null;
      },
      putAccount: async (next) => {
        if (next.id !== accountId) throw new Error(`account ${next.id} written in a transaction on ${accountId}`);
        account = copyAccount(next);
      },
      getOrder: async (orderId) => copy(current(orderId)),
      findOrderByClientId: async (clientOrderId) => {
        for (const order of orders.values()) if (order.clientOrderId === clientOrderId) return copy(order);
        const orderId = data.byClientId.get(clientOrderId);
        return copy(orderId === undefined ? undefined : current(orderId));
      },
      listOpenOrders: async () => {
        const ids = new Set([...data.openIds, ...orders.keys()]);
        const open = [...ids].map(current).filter((order): order is PaperOrder => order?.status === 'open');
        return open.sort((a, b) => a.createdAt - b.createdAt).map(copyOrder);
      },
      putOrder: async (order) => {
        if (order.accountId !== accountId)
          throw new Error(`order of ${order.accountId} written in a transaction on ${accountId}`);
        const existing = order.clientOrderId === undefined ? null : await tx.findOrderByClientId(order.clientOrderId);
        if (existing && existing.id !== order.id)
          throw new Error(`client order id ${order.clientOrderId} already used`);
        orders.set(order.id, copyOrder(order));
      },
    };
    const result = await work(tx);
    if (account !== undefined) data.account = account;
    for (const order of orders.values()) {
      data.orders.set(order.id, order);
      if (order.clientOrderId !== undefined) data.byClientId.set(order.clientOrderId, order.id);
      if (order.status === 'open') data.openIds.add(order.id);
      else data.openIds.delete(order.id);
    }
    if (data.account === null && data.orders.size === 0) accounts.delete(accountId);
    return result;
  }

  return {
    transaction(accountId, work) {
      const previous = queues.get(accountId) ?? Promise.resolve();
      const result = previous.then(() => run(accountId, work));
      // The queue continues whether this transaction succeeds or not.
      const settled = result.catch(() => undefined);
      queues.set(accountId, settled);
      void settled.then(() => {
        if (queues.get(accountId) === settled) queues.delete(accountId);
      });
      return result;
    },
  };
}
