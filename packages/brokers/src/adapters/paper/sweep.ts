// Catching up on resting orders. A call sweeps the symbols it touches (all of them for a view
// of the account): for each, the minute samples since its last sweep give a price range, and
// only the open orders that range reached (or that expire) are read and scanned. Fills then run
// in time order across the swept symbols, so each sees the cash left by those before it.
import type { OrderClass } from '@router/orders';
import { adopt, type Book, finish, instrumentOf, loadOrder, priceAt, symbolState, touch } from './book.ts';
import { type Reach, type ScanResult, sampleTimes, scan, sessionClose } from './matching.ts';
import { fill } from './trading.ts';
import type { PaperOrder, PaperSymbolState } from './types.ts';

interface Window {
  state: PaperSymbolState;
  /** Swept up to here before this sweep. */
  from: number;
  times: number[];
  /** The price at each sample, by class: a stock and a future may share a name (CL), not their prices. */
  prices: Map<OrderClass, Map<number, number>>;
}

const CLASSES: readonly OrderClass[] = ['stock', 'crypto', 'option', 'future', 'forex', 'cfd'];

/** The net price of a combo at an instant: what its legs cost per unit (negative: a credit). */
export function comboPrice(book: Book, order: PaperOrder, at: number): number {
  let net = 0;
  for (const leg of order.legs ?? []) {
    const price = priceAt(book, instrumentOf(book, leg.symbol, leg.class), at);
    net += (leg.side === 'buy' ? 1 : -1) * leg.ratio * price;
  }
  return Math.round(net * 100) / 100;
}

async function windowOf(book: Book, symbol: string): Promise<Window | undefined> {
  const state = await symbolState(book, symbol);
  if (!state || state.open === 0) return undefined;
  const times = sampleTimes(state.sweptAt, book.market.now);
  const expiring = state.expiresAt !== undefined && state.expiresAt <= book.market.now;
  if (times.length === 0 && !expiring) return undefined;
  const prices = new Map<OrderClass, Map<number, number>>();
  // Classes priced alike (a stock and its CFD) share their samples.
  const walks = new Map<string, Map<number, number>>();
  for (const cls of CLASSES) {
    const instrument = instrumentOf(book, symbol, cls);
    if (!instrument.listed && cls !== state.class) continue;
    const { priceKey, priceClass, scaleKey, tick, expiresAt, future, option } = instrument;
    const walk = JSON.stringify([priceKey, priceClass, scaleKey, tick, expiresAt, future, option && symbol]);
    let samples = walks.get(walk);
    if (!samples) {
      samples = new Map(times.map((at) => [at, priceAt(book, instrument, at)]));
      walks.set(walk, samples);
    }
    prices.set(cls, samples);
  }
  return { state, from: state.sweptAt, times, prices };
}

/** Executes what the market reached on these symbols since their last sweep; expires day orders. */
export async function sweep(book: Book, symbols: readonly string[]): Promise<void> {
  const { now } = book.market;
  const windows = new Map<string, Window>();
  const candidates = new Set<PaperOrder>();
  for (const symbol of new Set(symbols)) {
    const window = await windowOf(book, symbol);
    if (!window) continue;
    windows.set(symbol, window);
    const values = [...window.prices.values()].flatMap((samples) => [...samples.values()]);
    const reach: Reach = {
      low: values.length ? Math.min(...values) : Number.POSITIVE_INFINITY,
      high: values.length ? Math.max(...values) : Number.NEGATIVE_INFINITY,
      ...(window.state.expiresAt !== undefined && window.state.expiresAt <= now ? { expiringBy: now } : {}),
    };
    for (const order of adopt(book, await book.tx.listReachedOrders(symbol, reach))) candidates.add(order);
  }
  if (windows.size === 0) return;
  // A filled exit cancels its sibling: have the siblings at hand.
  for (const order of candidates) if (order.ocoId) await loadOrder(book, order.ocoId);

  const scans = new Map<PaperOrder, ScanResult>();
  const scanOf = (order: PaperOrder): ScanResult | undefined => {
    const window = windows.get(order.symbol);
    if (!window) return undefined;
    let result = scans.get(order);
    if (!result) {
      const samples = window.prices.get(order.class) ?? window.prices.get(window.state.class);
      const price = (at: number) => (order.legs ? comboPrice(book, order, at) : (samples?.get(at) ?? 0));
      const end = Math.min(now, order.expiresAt ?? now);
      result = scan(order, window.times, Math.max(window.from, order.createdAt), end, price);
      scans.set(order, result);
    }
    return result;
  };
  for (;;) {
    let next: { order: PaperOrder; at: number; price: number } | undefined;
    // This call's own open orders (exits created by fills in this sweep) are scanned too.
    for (const order of book.orders.values())
      if (order.status === 'open' && windows.has(order.symbol)) candidates.add(order);
    for (const order of candidates) {
      if (order.status !== 'open') continue;
      const execution = scanOf(order)?.execution;
      if (execution && (!next || execution.at < next.at)) next = { order, ...execution };
    }
    if (!next) break;
    await fill(book, next.order, next.at, next.price);
  }
  for (const order of candidates) {
    if (order.status !== 'open') continue;
    if (scans.get(order)?.triggered && !order.triggered) {
      order.triggered = true;
      touch(book, order);
    }
    if (order.expiresAt !== undefined && order.expiresAt <= now)
      finish(book, order, 'canceled', 'Canceled: expired at the end of the day');
  }
  for (const { state } of windows.values()) {
    state.sweptAt = now;
    // The next expiry is unknown without a read: look again at the next session close.
    if (state.expiresAt !== undefined && state.expiresAt <= now) state.expiresAt = sessionClose(now);
    if (state.open === 0) delete state.expiresAt;
    book.changedSymbols.add(state.symbol);
  }
}

/** Sweeps every symbol with open orders. */
export async function sweepAll(book: Book): Promise<void> {
  await sweep(
    book,
    (await book.tx.listActiveSymbols()).map((state) => state.symbol),
  );
}
