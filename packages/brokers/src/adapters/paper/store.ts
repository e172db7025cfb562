// Where the paper broker keeps its accounts and orders. The broker owns no database: the
// server injects a store (PostgreSQL), tests and single-process setups use the memory one.
// A placement reads the account, its symbol's state and only the resting orders the market
// reached (an index on their price levels), so its cost does not grow with resting orders.
import { createAccountState } from './account-state.ts';
import { runBatch } from './batch.ts';
import type { Reach } from './matching.ts';
import { createMemoryAccount, type MemoryAccount } from './memory-account.ts';
import { createQueuedPaperStore } from './queued-store.ts';
import type { PaperAccount, PaperOrder, PaperSymbolState } from './types.ts';

/** Access to one account's state inside a transaction. Values returned are copies. */
export interface PaperStoreTransaction {
  getAccount(): Promise<PaperAccount | null>;
  putAccount(account: PaperAccount): Promise<void>;
  getOrder(orderId: string): Promise<PaperOrder | null>;
  /** The account's order placed with this client order id (our signal id), if any. */
  findOrderByClientId(clientOrderId: string): Promise<PaperOrder | null>;
  /** Inserts or replaces an order (by id). */
  putOrder(order: PaperOrder): Promise<void>;
  /** Open orders of a symbol, or of the whole account; oldest first. */
  listOpenOrders(symbol?: string): Promise<PaperOrder[]>;
  /** Open orders of a symbol the price range reaches (matching.ts `isReached`), in no order. */
  listReachedOrders(symbol: string, reach: Reach): Promise<PaperOrder[]>;
  /** Filled orders, filled at or after `since`, newest first, at most `limit`. */
  listFills(since: number, limit: number): Promise<PaperOrder[]>;
  getSymbol(symbol: string): Promise<PaperSymbolState | null>;
  putSymbol(state: PaperSymbolState): Promise<void>;
  /** States of the symbols with open orders. */
  listActiveSymbols(): Promise<PaperSymbolState[]>;
}

/**
 * Transactions on one account run one at a time (a PostgreSQL store holds a lock on the
 * account), so concurrent orders never spend the same cash twice. Writes become visible when
 * `work` resolves and are discarded when it throws. A store may run a work again after a
 * failure that discarded its writes (a database transaction failing on another one's data), so
 * a work must have no effect outside the store.
 */
export interface PaperStore {
  transaction<T>(
    accountId: string,
    work: (tx: PaperStoreTransaction) => Promise<T>,
    hint?: TransactionHint,
  ): Promise<T>;
}

/** What a transaction will look up, so a store can read it for a whole batch in one go. */
export interface TransactionHint {
  clientOrderIds?: string[];
  symbols?: string[];
}

/** An in-process store: the truth per account, indexed like the database; transactions one at a time. */
export function createMemoryPaperStore(): PaperStore {
  const accounts = new Map<string, MemoryAccount>();
  return createQueuedPaperStore(async (accountId, works) => {
    const root = accounts.get(accountId) ?? createMemoryAccount();
    const { outcomes, changes } = await runBatch(accountId, createAccountState(accountId, root), works);
    root.apply(changes);
    if (root.exists()) accounts.set(accountId, root);
    return outcomes;
  }, 1);
}
