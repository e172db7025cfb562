// One account's committed state in the memory store, indexed as the database indexes it: open
// orders by symbol and by price level (sorted arrays), so finding the orders a price range
// reached costs a binary search and the orders found, not a pass over every resting order.
import type { PaperChanges, PaperSource } from './account-state.ts';
import { isReached, type Reach, reachLevels } from './matching.ts';
import type { PaperAccount, PaperOrder, PaperSymbolState } from './types.ts';

export interface MemoryAccount extends PaperSource {
  apply(changes: PaperChanges): void;
  exists(): boolean;
}

interface Level {
  level: number;
  id: string;
}

interface SymbolIndex {
  open: Set<string>;
  /** Ascending by level, then id. */
  lows: Level[];
  highs: Level[];
}

const before = (a: Level, b: Level) => a.level < b.level || (a.level === b.level && a.id < b.id);

/** Index of the first entry not before `probe`. */
function lowerBound(levels: readonly Level[], probe: Level): number {
  let [lo, hi] = [0, levels.length];
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (before(levels[mid] as Level, probe)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function insert(levels: Level[], entry: Level): void {
  levels.splice(lowerBound(levels, entry), 0, entry);
}

function remove(levels: Level[], entry: Level): void {
  const at = lowerBound(levels, entry);
  if (levels[at]?.id === entry.id) levels.splice(at, 1);
}

export function createMemoryAccount(): MemoryAccount {
  let account: PaperAccount | null = null;
  const orders = new Map<string, PaperOrder>();
  const byClientId = new Map<string, string>();
  const symbols = new Map<string, PaperSymbolState>();
  const bySymbol = new Map<string, SymbolIndex>();

  const indexOf = (symbol: string): SymbolIndex => {
    let entry = bySymbol.get(symbol);
    if (!entry) {
      entry = { open: new Set(), lows: [], highs: [] };
      bySymbol.set(symbol, entry);
    }
    return entry;
  };
  /** Adds an open order to the index, or takes it out. */
  const index = (order: PaperOrder, add: boolean) => {
    if (order.status !== 'open') return;
    const entry = indexOf(order.symbol);
    const { low, high } = reachLevels(order);
    if (add) entry.open.add(order.id);
    else entry.open.delete(order.id);
    for (const [level, levels] of [
      [low, entry.lows],
      [high, entry.highs],
    ] as const) {
      if (level !== undefined) (add ? insert : remove)(levels, { level, id: order.id });
    }
  };
  const ordersOf = (ids: Iterable<string>) => [...ids].flatMap((id) => orders.get(id) ?? []);
  const oldestFirst = (list: PaperOrder[]) =>
    list.sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));

  return {
    exists: () => account !== null,
    getAccount: async () => account,
    getOrder: async (id) => orders.get(id) ?? null,
    findOrderByClientId: async (clientOrderId) => orders.get(byClientId.get(clientOrderId) ?? '') ?? null,
    getSymbol: async (symbol) => symbols.get(symbol) ?? null,
    listActiveSymbols: async () => [...symbols.values()].filter((state) => state.open > 0),
    listOpenOrders: async (symbol) =>
      oldestFirst(
        ordersOf(
          symbol === undefined
            ? [...bySymbol.values()].flatMap((e) => [...e.open])
            : (bySymbol.get(symbol)?.open ?? []),
        ),
      ),
    listReachedOrders: async (symbol, reach: Reach) => {
      const entry = bySymbol.get(symbol);
      if (!entry) return [];
      const ids = new Set<string>();
      for (const { id } of entry.lows.slice(lowerBound(entry.lows, { level: reach.low, id: '' }))) ids.add(id);
      for (const { id } of entry.highs.slice(0, lowerBound(entry.highs, { level: reach.high, id: '\uffff' })))
        ids.add(id);
      // Expiry is once a day per symbol: a pass over the symbol's open orders then is fine.
      if (reach.expiringBy !== undefined) for (const id of entry.open) ids.add(id);
      return ordersOf(ids).filter((order) => isReached(order, reach));
    },
    listFills: async (since, limit) =>
      [...orders.values()]
        .filter((order) => order.status === 'filled' && (order.filledAt ?? 0) >= since)
        .sort((a, b) => (b.filledAt ?? 0) - (a.filledAt ?? 0) || (a.id < b.id ? 1 : -1))
        .slice(0, limit),
    apply: (changes) => {
      if (changes.account) account = changes.account;
      for (const order of changes.orders) {
        const previous = orders.get(order.id);
        if (previous) index(previous, false);
        if (previous?.clientOrderId !== undefined && previous.clientOrderId !== order.clientOrderId) {
          byClientId.delete(previous.clientOrderId);
        }
        orders.set(order.id, order);
        if (order.clientOrderId !== undefined) byClientId.set(order.clientOrderId, order.id);
        index(order, true);
      }
      for (const state of changes.symbols) symbols.set(state.symbol, state);
    },
  };
}
