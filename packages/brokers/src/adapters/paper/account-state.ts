// One account's state as a store transaction sees it: what it has read and written, over a
// source it reads the rest from. The memory store's source is its committed account; the
// PostgreSQL store's is the database, under one state per database transaction; each store
// transaction writes to a state of its own over that one, merged on success. Queries go to the
// source and are merged with what this state holds (its own version of an order wins).
import { isReached, type Reach } from './matching.ts';
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
  return new TransactionState(accountId, source);
}

/**
 * A class, not a closure per method: a paced signal is a batch of one, which makes two states (the
 * batch's and its work's), so their fourteen methods were made anew twice per signal.
 */
class TransactionState implements AccountState {
  readonly #accountId: string;
  readonly #source: PaperSource;
  // undefined: not read yet; null: known not to exist.
  #account: PaperAccount | null | undefined;
  readonly #orders = new Map<string, PaperOrder | null>();
  readonly #bySymbol = new Map<string, Set<string>>();
  readonly #byClientId = new Map<string, string | null>();
  readonly #symbols = new Map<string, PaperSymbolState | null>();
  #written: PaperAccount | undefined;
  readonly #writtenOrders = new Map<string, PaperOrder>();
  readonly #writtenSymbols = new Map<string, PaperSymbolState>();

  constructor(accountId: string, source: PaperSource) {
    this.#accountId = accountId;
    this.#source = source;
  }

  #hold(order: PaperOrder): void {
    this.#orders.set(order.id, order);
    let ids = this.#bySymbol.get(order.symbol);
    if (!ids) {
      ids = new Set();
      this.#bySymbol.set(order.symbol, ids);
    }
    ids.add(order.id);
  }

  // What the source returns only fills what is still unknown after the await: a write made
  // meanwhile (a work not awaiting its calls) is newer. An order read also tells its client
  // order id's owner (the source holds each client order id once).
  #learn(order: PaperOrder): void {
    if (!this.#orders.get(order.id)) this.#hold(order);
    if (order.clientOrderId !== undefined && !this.#byClientId.has(order.clientOrderId)) {
      this.#byClientId.set(order.clientOrderId, order.id);
    }
  }

  #learnAll(read: readonly PaperOrder[]): Set<string> {
    for (const order of read) this.#learn(order);
    return new Set(read.map((order) => order.id));
  }

  /** This state's version of each order, for the source's answer and what this state holds. */
  #merged(fromSource: Set<string>, held: Iterable<string>, keep: (order: PaperOrder) => boolean): PaperOrder[] {
    for (const id of held) fromSource.add(id);
    return [...fromSource].flatMap((id) => {
      const order = this.#orders.get(id);
      return order && keep(order) ? [copyOrder(order)] : [];
    });
  }

  async #readByClientId(clientOrderId: string): Promise<PaperOrder | null> {
    if (!this.#byClientId.has(clientOrderId)) {
      const read = await this.#source.findOrderByClientId(clientOrderId);
      if (read && !this.#orders.get(read.id)) this.#hold(read);
      if (!this.#byClientId.has(clientOrderId)) this.#byClientId.set(clientOrderId, read ? read.id : null);
    }
    const orderId = this.#byClientId.get(clientOrderId);
    const order = typeof orderId === 'string' ? this.#orders.get(orderId) : null;
    // The order may since have been rewritten with another client order id.
    return order?.clientOrderId === clientOrderId ? order : null;
  }

  async #readSymbol(symbol: string): Promise<PaperSymbolState | null> {
    if (!this.#symbols.has(symbol)) {
      const read = await this.#source.getSymbol(symbol);
      if (!this.#symbols.has(symbol)) this.#symbols.set(symbol, read);
    }
    return this.#symbols.get(symbol) ?? null;
  }

  #store(order: PaperOrder): void {
    this.#hold(order);
    if (order.clientOrderId !== undefined) this.#byClientId.set(order.clientOrderId, order.id);
  }

  async getAccount(): Promise<PaperAccount | null> {
    if (this.#account === undefined) {
      const read = await this.#source.getAccount();
      if (this.#account === undefined) this.#account = read;
    }
    return this.#account ? copyAccount(this.#account) : null;
  }

  async putAccount(next: PaperAccount): Promise<void> {
    if (next.id !== this.#accountId)
      throw new Error(`account ${next.id} written in a transaction on ${this.#accountId}`);
    this.#account = copyAccount(next);
    this.#written = this.#account;
  }

  async getOrder(orderId: string): Promise<PaperOrder | null> {
    if (!this.#orders.has(orderId)) {
      const read = await this.#source.getOrder(orderId);
      if (read) this.#learn(read);
      else if (!this.#orders.has(orderId)) this.#orders.set(orderId, null);
    }
    const order = this.#orders.get(orderId);
    return order ? copyOrder(order) : null;
  }

  async findOrderByClientId(clientOrderId: string): Promise<PaperOrder | null> {
    const order = await this.#readByClientId(clientOrderId);
    return order ? copyOrder(order) : null;
  }

  async putOrder(order: PaperOrder): Promise<void> {
    if (order.accountId !== this.#accountId)
      throw new Error(`order of ${order.accountId} written in a transaction on ${this.#accountId}`);
    // What the unique index paper_orders_client_idx enforces in the database.
    const existing = order.clientOrderId === undefined ? null : await this.#readByClientId(order.clientOrderId);
    if (existing && existing.id !== order.id) throw new Error(`client order id ${order.clientOrderId} already used`);
    const own = copyOrder(order);
    this.#store(own);
    this.#writtenOrders.set(own.id, own);
  }

  async listOpenOrders(symbol?: string): Promise<PaperOrder[]> {
    const read = this.#learnAll(await this.#source.listOpenOrders(symbol));
    const held = symbol === undefined ? this.#orders.keys() : (this.#bySymbol.get(symbol) ?? []);
    const open = (order: PaperOrder) => order.status === 'open' && (symbol === undefined || order.symbol === symbol);
    return this.#merged(read, held, open).sort(oldestFirst);
  }

  async listReachedOrders(symbol: string, reach: Reach): Promise<PaperOrder[]> {
    const read = this.#learnAll(await this.#source.listReachedOrders(symbol, reach));
    const reached = (order: PaperOrder) =>
      order.status === 'open' && order.symbol === symbol && isReached(order, reach);
    return this.#merged(read, this.#bySymbol.get(symbol) ?? [], reached);
  }

  async listFills(since: number, limit: number): Promise<PaperOrder[]> {
    const read = this.#learnAll(await this.#source.listFills(since, limit));
    const filled = (order: PaperOrder) => order.status === 'filled' && (order.filledAt ?? 0) >= since;
    return this.#merged(read, this.#orders.keys(), filled)
      .sort((a, b) => (b.filledAt ?? 0) - (a.filledAt ?? 0) || oldestFirst(b, a))
      .slice(0, limit);
  }

  async getSymbol(symbol: string): Promise<PaperSymbolState | null> {
    const state = await this.#readSymbol(symbol);
    return state ? { ...state } : null;
  }

  async putSymbol(state: PaperSymbolState): Promise<void> {
    const own = { ...state };
    this.#symbols.set(own.symbol, own);
    this.#writtenSymbols.set(own.symbol, own);
  }

  async listActiveSymbols(): Promise<PaperSymbolState[]> {
    for (const state of await this.#source.listActiveSymbols())
      if (!this.#symbols.has(state.symbol)) this.#symbols.set(state.symbol, state);
    return [...this.#symbols.values()].flatMap((state) => (state && state.open > 0 ? [{ ...state }] : []));
  }

  changes(): PaperChanges {
    return {
      ...(this.#written ? { account: this.#written } : {}),
      orders: [...this.#writtenOrders.values()],
      symbols: [...this.#writtenSymbols.values()],
    };
  }

  apply(changes: PaperChanges): void {
    if (changes.account) this.#account = changes.account;
    for (const order of changes.orders) this.#store(order);
    for (const state of changes.symbols) this.#symbols.set(state.symbol, state);
  }

  know(known: Known): void {
    if (known.account !== undefined && this.#account === undefined) this.#account = known.account;
    for (const order of known.orders ?? []) this.#learn(order);
    for (const id of known.clientOrderIds ?? []) if (!this.#byClientId.has(id)) this.#byClientId.set(id, null);
    for (const state of known.states ?? [])
      if (!this.#symbols.has(state.symbol)) this.#symbols.set(state.symbol, state);
    for (const symbol of known.symbols ?? []) if (!this.#symbols.has(symbol)) this.#symbols.set(symbol, null);
  }
}
