// One account's state as a store transaction sees it: what it has read and written, over a
// source it reads the rest from. The memory store keeps one per account with no source (it
// holds everything); the PostgreSQL store keeps one per database transaction over the database,
// and each store transaction in it writes to a state of its own, merged on success.
import type { PaperStoreTransaction } from './store.ts';
import { copyAccount, copyOrder, type PaperAccount, type PaperOrder } from './types.ts';

/** Where a state reads what it does not hold. Values returned become the state's own. */
export type PaperSource = Pick<
  PaperStoreTransaction,
  'getAccount' | 'getOrder' | 'findOrderByClientId' | 'listOpenOrders'
>;

/** What a transaction wrote: its account (when written) and orders, in order of first write. */
export interface PaperChanges {
  account?: PaperAccount;
  orders: PaperOrder[];
}

export interface AccountState extends PaperStoreTransaction {
  /** What was put through this state. */
  changes(): PaperChanges;
  /** Takes changes a transaction made (and checked) over this state. */
  apply(changes: PaperChanges): void;
  /** Takes what a read of these client order ids found (`found`); the others are known absent. */
  know(clientOrderIds: readonly string[], found: readonly PaperOrder[]): void;
}

export function createAccountState(accountId: string, source?: PaperSource): AccountState {
  // undefined: not read yet; null: known not to exist. Without a source, nothing is unread.
  let account: PaperAccount | null | undefined = source ? undefined : null;
  const orders = new Map<string, PaperOrder | null>();
  const byClientId = new Map<string, string | null>();
  let openIds: Set<string> | undefined = source ? undefined : new Set();
  let written: PaperAccount | undefined;
  const writtenOrders = new Map<string, PaperOrder>();

  // What the source returns only fills what is still unknown after the await: a write made
  // meanwhile (a work not awaiting its calls) is newer. An order read also tells its client
  // order id's owner (the source holds each client order id once).
  const learn = (order: PaperOrder): void => {
    if (!orders.has(order.id)) orders.set(order.id, order);
    if (order.clientOrderId !== undefined && !byClientId.has(order.clientOrderId)) {
      byClientId.set(order.clientOrderId, order.id);
    }
  };
  const readAccount = async (): Promise<PaperAccount | null> => {
    if (account === undefined) {
      const read = source ? await source.getAccount() : null;
      if (account === undefined) account = read;
    }
    return account;
  };
  const readOrder = async (orderId: string): Promise<PaperOrder | null> => {
    if (!orders.has(orderId) && source) {
      const read = await source.getOrder(orderId);
      if (read) learn(read);
      else if (!orders.has(orderId)) orders.set(orderId, null);
    }
    return orders.get(orderId) ?? null;
  };
  const readByClientId = async (clientOrderId: string): Promise<PaperOrder | null> => {
    if (!byClientId.has(clientOrderId) && source) {
      const read = await source.findOrderByClientId(clientOrderId);
      if (read && !orders.has(read.id)) orders.set(read.id, read);
      if (!byClientId.has(clientOrderId)) byClientId.set(clientOrderId, read ? read.id : null);
    }
    const orderId = byClientId.get(clientOrderId);
    const order = typeof orderId === 'string' ? orders.get(orderId) : null;
    // The order may since have been rewritten with another client order id.
    return order?.clientOrderId === clientOrderId ? order : null;
  };
  const readOpenIds = async (): Promise<Set<string>> => {
    if (!openIds && source) {
      const read = await source.listOpenOrders();
      for (const order of read) learn(order);
      openIds ??= new Set([...orders.values()].flatMap((order) => (order?.status === 'open' ? [order.id] : [])));
    }
    return openIds ?? new Set();
  };

  const store = (order: PaperOrder): void => {
    orders.set(order.id, order);
    if (order.clientOrderId !== undefined) byClientId.set(order.clientOrderId, order.id);
    if (order.status === 'open') openIds?.add(order.id);
    else openIds?.delete(order.id);
  };
  const copy = (order: PaperOrder | null): PaperOrder | null => (order ? copyOrder(order) : null);

  return {
    getAccount: async () => {
      const seen = await readAccount();
      return seen ? copyAccount(seen) : null;
    },
    putAccount: async (next) => {
      if (next.id !== accountId) throw new Error(`account ${next.id} written in a transaction on ${accountId}`);
      account = copyAccount(next);
      written = account;
    },
    getOrder: async (orderId) => copy(await readOrder(orderId)),
    findOrderByClientId: async (clientOrderId) => copy(await readByClientId(clientOrderId)),
    listOpenOrders: async () => {
      const open = [...(await readOpenIds())].flatMap((orderId) => orders.get(orderId) ?? []);
      // Oldest first, then by id like the database's index order (ids of one account differ
      // only in their number, which every collation orders alike).
      open.sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
      return open.map(copyOrder);
    },
    putOrder: async (order) => {
      if (order.accountId !== accountId)
        throw new Error(`order of ${order.accountId} written in a transaction on ${accountId}`);
      // What the unique index paper_orders_client_idx enforces in the database.
      const existing = order.clientOrderId === undefined ? null : await readByClientId(order.clientOrderId);
      if (existing && existing.id !== order.id) throw new Error(`client order id ${order.clientOrderId} already used`);
      const own = copyOrder(order);
      store(own);
      writtenOrders.set(own.id, own);
    },
    changes: () => ({ ...(written ? { account: written } : {}), orders: [...writtenOrders.values()] }),
    apply: (changes) => {
      if (changes.account) account = changes.account;
      for (const order of changes.orders) store(order);
    },
    know: (clientOrderIds, found) => {
      for (const order of found) learn(order);
      for (const clientOrderId of clientOrderIds)
        if (!byClientId.has(clientOrderId)) byClientId.set(clientOrderId, null);
    },
  };
}
