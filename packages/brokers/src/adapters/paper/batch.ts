// Store transactions of one account run one after the other over one state, with the result
// of running them as separate transactions: each sees what those before it wrote, and one that
// throws leaves nothing. A store can then make the batch durable at once.
import { type AccountState, createAccountState, type PaperChanges } from './account-state.ts';
import type { PaperStoreTransaction } from './store.ts';
import type { PaperOrder, PaperSymbolState } from './types.ts';

export type PaperWork<T = unknown> = (tx: PaperStoreTransaction) => Promise<T>;

export type Outcome<T = unknown> = { ok: true; value: T } | { ok: false; error: unknown };

export interface BatchResult {
  /** One per work, in order. */
  outcomes: Outcome[];
  /** Everything the works that succeeded wrote: the last account, each order's and symbol's last version. */
  changes: PaperChanges;
}

export async function runBatch(
  accountId: string,
  state: AccountState,
  works: readonly PaperWork[],
): Promise<BatchResult> {
  const outcomes: Outcome[] = [];
  let account: PaperChanges['account'];
  const orders = new Map<string, PaperOrder>();
  const symbols = new Map<string, PaperSymbolState>();
  for (const work of works) {
    const tx = createAccountState(accountId, state);
    try {
      const value = await work(tx);
      const changes = tx.changes();
      state.apply(changes);
      account = changes.account ?? account;
      for (const order of changes.orders) orders.set(order.id, order);
      for (const state of changes.symbols) symbols.set(state.symbol, state);
      outcomes.push({ ok: true, value });
    } catch (error) {
      outcomes.push({ ok: false, error });
    }
  }
  return {
    outcomes,
    changes: { ...(account ? { account } : {}), orders: [...orders.values()], symbols: [...symbols.values()] },
  };
}
