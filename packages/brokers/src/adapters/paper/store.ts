// Where the paper broker keeps its accounts and orders. The broker owns no database: the
// server injects a store (PostgreSQL), tests and single-process setups use the memory one.
import { type AccountState, createAccountState } from './account-state.ts';
import { runBatch } from './batch.ts';
import { createQueuedPaperStore } from './queued-store.ts';
import type { PaperAccount, PaperOrder } from './types.ts';

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
}

/** An in-process store: a state per account, its transactions run one at a time. */
export function createMemoryPaperStore(): PaperStore {
  const accounts = new Map<string, AccountState>();
  return createQueuedPaperStore(async (accountId, works) => {
    const state = accounts.get(accountId) ?? createAccountState(accountId);
    const { outcomes, changes } = await runBatch(accountId, state, works);
    if (changes.account || changes.orders.length > 0) accounts.set(accountId, state);
    return outcomes;
  }, 1);
}
