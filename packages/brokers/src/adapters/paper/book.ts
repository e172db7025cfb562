// One account's working state inside a store transaction: the account, the orders and symbol
// states this call read or changed (loaded on demand from the store), the market, and the
// bookkeeping of opening and finishing orders (held buying power, open orders per symbol).
import type { OrderClass } from '@router/orders';
import type { Instrument, Instruments } from './instruments.ts';
import type { MarkOf } from './portfolio.ts';
import { roundCash } from './precision.ts';
import { priceOf, type ScaleOf } from './pricing.ts';
import type { QuoteSource } from './quotes.ts';
import type { PaperStoreTransaction } from './store.ts';
import type { PaperAccount, PaperOrder, PaperOrderStatus, PaperSymbolState } from './types.ts';

export interface Market {
  now: number;
  quote: QuoteSource;
  instruments: Instruments;
}

export interface Book {
  account: PaperAccount;
  tx: PaperStoreTransaction;
  market: Market;
  /** Orders read or made in this call, by id: the working copies. */
  orders: Map<string, PaperOrder>;
  /** Orders created or changed in this call, to be saved. */
  changed: Map<string, PaperOrder>;
  /** Symbol states read (null: none stored), and those changed. */
  symbols: Map<string, PaperSymbolState | null>;
  changedSymbols: Set<string>;
}

/** `account` is the store's copy: this call may change it; nothing is saved unless `save` runs. */
export function openBook(account: PaperAccount, tx: PaperStoreTransaction, market: Market): Book {
  return { account, tx, market, orders: new Map(), changed: new Map(), symbols: new Map(), changedSymbols: new Set() };
}

export function instrumentOf(book: Book, symbol: string, cls: OrderClass): Instrument {
  return book.market.instruments.resolve(symbol, cls);
}

export function scaleOf(book: Book): ScaleOf {
  return (key) => book.account.priceScales[key] ?? 1;
}

export function priceAt(book: Book, instrument: Instrument, at: number): number {
  return priceOf(instrument, at, book.market.quote, scaleOf(book));
}

/** A resting order on an option or a dated future ends when its contract expires (the earliest leg's). */
export function endWithContract(book: Book, order: PaperOrder): void {
  const legs = order.legs ?? [order];
  for (const { symbol, class: cls } of legs) {
    const { expiresAt } = instrumentOf(book, symbol, cls);
    if (expiresAt !== undefined) order.expiresAt = Math.min(order.expiresAt ?? expiresAt, expiresAt);
  }
}

/** Instruments and prices at an instant, each looked up once. */
export function marksAt(book: Book, at: number): MarkOf {
  const seen = new Map<string, ReturnType<MarkOf>>();
  return (symbol, cls) => {
    const key = `${cls}|${symbol}`;
    let mark = seen.get(key);
    if (!mark) {
      const instrument = instrumentOf(book, symbol, cls);
      mark = { instrument, price: priceAt(book, instrument, at) };
      seen.set(key, mark);
    }
    return mark;
  };
}

/** The book's working copies of orders the store returned: its own version of each wins. */
export function adopt(book: Book, orders: readonly PaperOrder[]): PaperOrder[] {
  return orders.map((order) => {
    const own = book.orders.get(order.id);
    if (own) return own;
    book.orders.set(order.id, order);
    return order;
  });
}

export async function loadOrder(book: Book, orderId: string): Promise<PaperOrder | undefined> {
  const own = book.orders.get(orderId);
  if (own) return own;
  const read = await book.tx.getOrder(orderId);
  return read ? adopt(book, [read])[0] : undefined;
}

const oldestFirst = (a: PaperOrder, b: PaperOrder) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1);

/** Open orders of a symbol, this call's new ones included, oldest first. */
export async function openOrdersOf(book: Book, symbol: string): Promise<PaperOrder[]> {
  const stored = adopt(book, await book.tx.listOpenOrders(symbol));
  const all = new Set([...stored, ...[...book.orders.values()].filter((order) => order.symbol === symbol)]);
  return [...all].filter((order) => order.status === 'open').sort(oldestFirst);
}

/** Option symbols on an underlying whose states show open orders (of them, with combos only: `combos`). */
async function optionSymbolsOn(book: Book, underlying: string, combos: boolean): Promise<Set<string>> {
  const symbols = new Set<string>();
  for (const state of [...(await book.tx.listActiveSymbols()), ...book.symbols.values()]) {
    if (state?.class !== 'option' || state.open === 0 || (combos && state.combos === 0)) continue;
    if (instrumentOf(book, state.symbol, 'option').option?.underlying.symbol === underlying) symbols.add(state.symbol);
  }
  return symbols;
}

/**
 * Open orders that trade an instrument, oldest first: its own, and the combos with a leg on it. A
 * combo is listed under its first leg: for an option, the open orders of the option symbols on its
 * underlying where combos rest are read too (few rest at once).
 */
export async function openOrdersTrading(book: Book, instrument: Instrument): Promise<PaperOrder[]> {
  const { symbol, class: cls } = instrument;
  const underlying = instrument.option?.underlying.symbol;
  const symbols = new Set([symbol]);
  if (underlying !== undefined) for (const listed of await optionSymbolsOn(book, underlying, true)) symbols.add(listed);
  const found = new Set<PaperOrder>();
  for (const listed of symbols)
    for (const order of await openOrdersOf(book, listed))
      if ((order.legs ?? [order]).some((leg) => leg.symbol === symbol && leg.class === cls)) found.add(order);
  return [...found].sort(oldestFirst);
}

/** The underlying of the calls an order sells to open (one underlying per order), or undefined. */
function callsSoldOn(book: Book, order: PaperOrder): string | undefined {
  for (const leg of order.legs ?? [order]) {
    if (leg.action !== 'sell_to_open' || leg.class !== 'option') continue;
    const { option } = instrumentOf(book, leg.symbol, leg.class);
    if (option?.right === 'C') return option.underlying.symbol;
  }
  return undefined;
}

function countCallSales(book: Book, order: PaperOrder, change: 1 | -1): void {
  const underlying = callsSoldOn(book, order);
  if (underlying === undefined) return;
  const counts = book.account.openCallSales ?? {};
  const count = Math.max(0, (counts[underlying] ?? 0) + change);
  if (count > 0) counts[underlying] = count;
  else delete counts[underlying];
  book.account.openCallSales = counts;
}

/**
 * An account written before its open call sales were counted (none counted, some may rest) counts
 * them once, at its first call, from the open orders of its option symbols (combos rest under an
 * option leg); saved with the account, so later calls read nothing more. Runs before the call
 * starts or ends an order: either would start a count missing the orders resting before it.
 */
export async function countOpenCallSales(book: Book): Promise<void> {
  if (book.account.openCallSales !== undefined) return;
  const counts: Record<string, number> = {};
  for (const state of await book.tx.listActiveSymbols()) {
    if (state.class !== 'option') continue;
    for (const order of await openOrdersOf(book, state.symbol)) {
      const underlying = callsSoldOn(book, order);
      if (underlying !== undefined) counts[underlying] = (counts[underlying] ?? 0) + 1;
    }
  }
  book.account.openCallSales = counts;
}

/** Whether the account counts open orders selling calls to open on this stock. */
export function callsSoldOnShares(book: Book, stock: Instrument): boolean {
  return stock.class === 'stock' && (book.account.openCallSales?.[stock.symbol] ?? 0) > 0;
}

/**
 * Open orders selling calls to open on a stock, which its shares cover: read only when the
 * account counts some (a stock's sale reads nothing more otherwise).
 */
export async function openCallSalesOn(book: Book, stock: Instrument): Promise<PaperOrder[]> {
  if (!callsSoldOnShares(book, stock)) return [];
  const found: PaperOrder[] = [];
  for (const listed of await optionSymbolsOn(book, stock.symbol, false))
    for (const order of await openOrdersOf(book, listed))
      if (callsSoldOn(book, order) === stock.symbol) found.push(order);
  return found.sort(oldestFirst);
}

export async function symbolState(book: Book, symbol: string): Promise<PaperSymbolState | null> {
  if (!book.symbols.has(symbol)) book.symbols.set(symbol, await book.tx.getSymbol(symbol));
  return book.symbols.get(symbol) ?? null;
}

/** The symbol's state, to change; a state must have been read first (a sweep of the symbol reads it). */
function stateFor(book: Book, order: PaperOrder): PaperSymbolState {
  if (!book.symbols.has(order.symbol)) throw new Error(`paper: symbol ${order.symbol} changed before it was read`);
  let state = book.symbols.get(order.symbol);
  if (!state) {
    state = { symbol: order.symbol, class: order.class, sweptAt: book.market.now, open: 0 };
    book.symbols.set(order.symbol, state);
  }
  book.changedSymbols.add(order.symbol);
  return state;
}

export function nextOrderId(book: Book): string {
  book.account.orderSequence += 1;
  return `${book.account.id}-${book.account.orderSequence}`;
}

/** Records a new order; an open one holds its reservation and counts as open for its symbol. */
export function track(book: Book, order: PaperOrder): void {
  book.orders.set(order.id, order);
  book.changed.set(order.id, order);
  if (order.status !== 'open') return;
  book.account.reserved = roundCash(book.account.reserved + order.reservation);
  const state = stateFor(book, order);
  // From the first open order on, the symbol is swept from now (nothing rested before).
  if (state.open === 0) {
    state.sweptAt = Math.max(state.sweptAt, book.market.now);
    state.combos = 0;
  }
  state.open += 1;
  countCallSales(book, order, 1);
  if (order.legs && state.combos !== undefined) state.combos += 1;
  if (order.expiresAt !== undefined) state.expiresAt = Math.min(state.expiresAt ?? order.expiresAt, order.expiresAt);
}

export function finish(
  book: Book,
  order: PaperOrder,
  status: Exclude<PaperOrderStatus, 'open'>,
  description: string,
): void {
  // Only an order this book holds as open (read from the store, or tracked open) releases its hold.
  if (order.status === 'open' && book.orders.get(order.id) === order) {
    book.account.reserved = Math.max(0, roundCash(book.account.reserved - order.reservation));
    const state = stateFor(book, order);
    state.open = Math.max(0, state.open - 1);
    countCallSales(book, order, -1);
    if (order.legs && state.combos) state.combos -= 1;
    if (state.open === 0) {
      delete state.expiresAt;
      state.combos = 0;
    }
  }
  order.status = status;
  order.statusDescription = description;
  order.reservation = 0;
  book.orders.set(order.id, order);
  book.changed.set(order.id, order);
}

/** Marks an order changed (a stop_limit order whose stop was hit). */
export function touch(book: Book, order: PaperOrder): void {
  book.changed.set(order.id, order);
}

export async function save(book: Book): Promise<void> {
  await book.tx.putAccount(book.account);
  for (const order of book.changed.values()) await book.tx.putOrder(order);
  for (const symbol of book.changedSymbols) {
    const state = book.symbols.get(symbol);
    if (state) await book.tx.putSymbol(state);
  }
}
