// One account's state as a store transaction sees it: what it has read and written, over a
// source it reads the rest from. The memory store's source is its committed account; the
// PostgreSQL store's is the database, under one state per database transaction; each store
// transaction writes to a state of its own over that one, merged on success. Queries go to the
// source and are merged with what this state holds (its own version of an order wins).
import { isReached } from './matching.ts';
import type { PaperStoreTransaction } from './store.ts';
import { copyAccount, copyOrder, type PaperAccount, type PaperOrder, type PaperSymbolState } from './types.ts';

/** Where a state reads what it does not hold. Values returned become the state's own. */
export type PaperSource = Omit<PaperStoreTransaction, 'putAccount' | 'putOrder' | 'putSymbol'>;

/** What a transaction wrote: its account (when written), orders and symbol states, in order of first write. */
export interface PaperChanges {
  account?: PaperAccount;
  orders: PaperOrder[];
  symbols: PaperSymbolState[];
}

/** What a read made up front found; the client order ids and symbols asked for but not found are absent. */
export interface Known {
  account?: PaperAccount | null;
  clientOrderIds?: readonly string[];
  orders?: readonly PaperOrder[];
  symbols?: readonly string[];
  states?: readonly PaperSymbolState[];
}

export interface AccountState extends PaperStoreTransaction {
  /** What was put through this state. */
  changes(): PaperChanges;
  /** Takes changes a transaction made (and checked) over this state. */
  apply(changes: PaperChanges): void;
  know(known: Known): void;
}

const oldestFirst = (a: PaperOrder, b: PaperOrder) =>
  a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

export function createAccountState(accountId: string, source: PaperSource): AccountState {
  // undefined: not read yet; null: known not to exist.
  let account: PaperAccount | null | undefined;
  const orders = new Map<string, PaperOrder | null>();
  const bySymbol = new Map<string, Set<string>>();
  const byClientId = new Map<string, string | null>();
  const symbols = new Map<string, PaperSymbolState | null>();
  let written: PaperAccount | undefined;
  const writtenOrders = new Map<string, PaperOrder>();
  const writtenSymbols = new Map<string, PaperSymbolState>();

  const hold = (order: PaperOrder): void => {
    orders.set(order.id, order);
    let ids = bySymbol.get(order.symbol);
    if (!ids) {
      ids = new Set();
      bySymbol.set(order.symbol, ids);
    }
    ids.add(order.id);
  };
  // What the source returns only fills what is still unknown after the await: a write made
  // meanwhile (a work not awaiting its calls) is newer. An order read also tells its client
  // order id's owner (the source holds each client order id once).
  const learn = (order: PaperOrder): void => {
    if (!orders.get(order.id)) hold(order);
    if (order.clientOrderId !== undefined && !byClientId.has(order.clientOrderId)) {
      byClientId.set(order.clientOrderId, order.id);
    }
  };
  const learnAll = (read: readonly PaperOrder[]): Set<string> => {
    for (const order of read) learn(order);
    return new Set(read.map((order) => order.id));
  };
  /** This state's version of each order, for the source's answer and what this state holds. */
  const merged = (fromSource: Set<string>, held: Iterable<string>, keep: (order: PaperOrder) => boolean) => {
    for (const id of held) fromSource.add(id);
    return [...fromSource].flatMap((id) => {
      const order = orders.get(id);
      return order && keep(order) ? [copyOrder(order)] : [];
    });
  };
  const readByClientId = async (clientOrderId: string): Promise<PaperOrder | null> => {
    if (!byClientId.has(clientOrderId)) {
      const read = await source.findOrderByClientId(clientOrderId);
      if (read && !orders.get(read.id)) hold(read);
      if (!byClientId.has(clientOrderId)) byClientId.set(clientOrderId, read ? read.id : null);
    }
    const orderId = byClientId.get(clientOrderId);
    const order = typeof orderId === 'string' ? orders.get(orderId) : null;
    // The order may since have been rewritten with another client order id.
    return order?.clientOrderId === clientOrderId ? order : null;
  };
  const readSymbol = async (symbol: string): Promise<PaperSymbolState | null> => {
    if (!symbols.has(symbol)) {
      const read = await source.getSymbol(symbol);
      if (!symbols.has(symbol)) symbols.set(symbol, read);
    }
    return symbols.get(symbol) ?? null;
  };
  const store = (order: PaperOrder): void => {
    hold(order);
    if (order.clientOrderId !== undefined) byClientId.set(order.clientOrderId, order.id);
  };

  return {
    getAccount: async () => {
      if (account === undefined) {
        const read = await source.getAccount();
        if (account === undefined) account = read;
      }
      return account ? copyAccount(account) : null;
    },
    putAccount: async (next) => {
      if (next.id !== accountId) throw new Error(`account ${next.id} written in a transaction on ${accountId}`);
      account = copyAccount(next);
      written = account;
    },
    getOrder: async (orderId) => {
      if (!orders.has(orderId)) {
        const read = await source.getOrder(orderId);
        if (read) learn(read);
        else if (!orders.has(orderId)) orders.set(orderId, null);
      }
      const order = orders.get(orderId);
      return order ? copyOrder(order) : null;
    },
    findOrderByClientId: async (clientOrderId) => {
      const order = await readByClientId(clientOrderId);
      return order ? copyOrder(order) : null;
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
    listOpenOrders: async (symbol) => {
      const read = learnAll(await source.listOpenOrders(symbol));
      const held = symbol === undefined ? orders.keys() : (bySymbol.get(symbol) ?? []);
      const open = (order: PaperOrder) => order.status === 'open' && (symbol === undefined || order.symbol === symbol);
      return merged(read, held, open).sort(oldestFirst);
    },
    listReachedOrders: async (symbol, reach) => {
      const read = learnAll(await source.listReachedOrders(symbol, reach));
      const reached = (order: PaperOrder) =>
        order.status === 'open' && order.symbol === symbol && isReached(order, reach);
      return merged(read, bySymbol.get(symbol) ?? [], reached);
    },
    listFills: async (since, limit) => {
      const read = learnAll(await source.listFills(since, limit));
      const filled = (order: PaperOrder) => order.status === 'filled' && (order.filledAt ?? 0) >= since;
      return merged(read, orders.keys(), filled)
        .sort((a, b) => (b.filledAt ?? 0) - (a.filledAt ?? 0) || oldestFirst(b, a))
        .slice(0, limit);
    },
    getSymbol: async (symbol) => {
      const state = await readSymbol(symbol);
      return state ? { ...state } : null;
    },
    putSymbol: async (state) => {
      const own = { ...state };
      symbols.set(own.symbol, own);
      writtenSymbols.set(own.symbol, own);
    },
    listActiveSymbols: async () => {
      for (const state of await source.listActiveSymbols())
        if (!symbols.has(state.symbol)) symbols.set(state.symbol, state);
      return [...symbols.values()].flatMap((state) => (state && state.open > 0 ? [{ ...state }] : []));
    },
    changes: () => ({
      ...(written ? { account: written } : {}),
      orders: [...writtenOrders.values()],
      symbols: [...writtenSymbols.values()],
    }),
    apply: (changes) => {
      if (changes.account) account = changes.account;
      for (const order of changes.orders) store(order);
      for (const state of changes.symbols) symbols.set(state.symbol, state);
    },
    know: (known) => {
      if (known.account !== undefined && account === undefined) account = known.account;
      for (const order of known.orders ?? []) learn(order);
      for (const id of known.clientOrderIds ?? []) if (!byClientId.has(id)) byClientId.set(id, null);
      for (const state of known.states ?? []) if (!symbols.has(state.symbol)) symbols.set(state.symbol, state);
      for (const symbol of known.symbols ?? []) if (!symbols.has(symbol)) symbols.set(symbol, null);
    },
  };
}
