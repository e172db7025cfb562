// The paper broker: the Broker contract over the simulator and an injected store. Every call
// runs in one store transaction on the account, catching up first on the resting orders of the
// symbols it touches (sweep.ts).
import { randomInt } from 'node:crypto';
import { isExitAction, type OrderResponse } from '@router/orders';
import type { Broker, BrokerContext, BrokerSession, BrokerWith, Holdings } from '../../core/broker.ts';
import { accountNotInConnection, BrokerError } from '../../core/errors.ts';
import { orderIdToCancel } from '../../core/find-order.ts';
import { recordBrokerRequest } from '../../core/wire-log.ts';
import { describeAccount, type PaperAccountView, resetAccount } from './account-view.ts';
import {
  type Book,
  countOpenCallSales,
  finish,
  instrumentOf,
  loadOrder,
  type Market,
  openBook,
  priceAt,
  save,
} from './book.ts';
import { paperDescriptor } from './descriptor.ts';
import { settleExpired } from './expiry.ts';
import { createInstruments } from './instruments.ts';
import { invalid, PAPER_TITLE, tradableIn } from './placing.ts';
import { positionOf } from './portfolio.ts';
import { createSyntheticQuote, type QuoteSource } from './quotes.ts';
import { placeOrder } from './simulator.ts';
import type { PaperStore, PaperStoreTransaction, TransactionHint } from './store.ts';
import { sweep } from './sweep.ts';
import { builtInSymbols, type ListedSymbol } from './symbol-list.ts';
import type { PaperAccount, PaperOrder } from './types.ts';

export interface PaperBrokerOptions {
  store: PaperStore;
  /** Cash of a new account, in USD. */
  startingCash?: number;
  /** Clock, when the context brings none. */
  now?: () => number;
  /** Market prices; the synthetic quote by default. */
  quote?: QuoteSource;
  /** Symbols traded besides the built-in list (symbols.txt): a self-hoster's own (PAPER_SYMBOLS_FILE). */
  symbols?: readonly ListedSymbol[];
  /** New account ids; random `PA-XXXXXXXX` by default. */
  newAccountId?: () => string;
}

export const DEFAULT_STARTING_CASH = 100_000;
const ID_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';

function randomAccountId(): string {
  let code = '';
  for (let i = 0; i < 8; i++) code += ID_ALPHABET[randomInt(ID_ALPHABET.length)];
  return `PA-${code}`;
}

export function toOrderResponse(order: PaperOrder): OrderResponse {
  const status = order.status === 'open' ? 'accepted' : order.status;
  return {
    id: order.id,
    status,
    status_description: order.statusDescription,
    ...(order.fillPrice !== undefined ? { price: order.fillPrice } : {}),
  };
}

/** The paper broker, with what only a simulated account offers: its whole state, and a reset. */
export type PaperBroker = BrokerWith<
  | 'checkOrder'
  | 'previewOrder'
  | 'cancelOrder'
  | 'closePosition'
  | 'getHoldings'
  | 'findByClientId'
  | 'findByBrokerId'
  | 'lastPrice'
> & {
  accountView(ctx: BrokerContext, session: BrokerSession, accountId: string): Promise<PaperAccountView>;
  /** Cancels the open orders, clears positions and puts the cash back to the starting cash. */
  resetAccount(ctx: BrokerContext, session: BrokerSession, accountId: string): Promise<PaperAccountView>;
};

export function isPaperBroker(broker: Broker): broker is PaperBroker {
  return broker.descriptor.name === paperDescriptor.name && 'accountView' in broker;
}

export function createPaperBroker(options: PaperBrokerOptions): PaperBroker {
  const { store } = options;
  const instruments = createInstruments([...builtInSymbols(), ...(options.symbols ?? [])]);
  const quote = options.quote ?? createSyntheticQuote(instruments.levelOf);
  const startingCash = options.startingCash ?? DEFAULT_STARTING_CASH;
  const newAccountId = options.newAccountId ?? randomAccountId;
  const clock = (ctx: BrokerContext) => ctx.now ?? options.now ?? Date.now;

  /** Runs `work` on the account's book; saves the book unless `keep` is false. */
  function withAccount<T>(
    ctx: BrokerContext,
    session: BrokerSession,
    accountId: string,
    work: (book: Book, tx: PaperStoreTransaction) => Promise<T> | T,
    keep = true,
    hint?: TransactionHint,
  ): Promise<T> {
    // The server scopes connections to users; this keeps one connection off another's account.
    if (!session.accounts.some((account) => account.id === accountId)) {
      return Promise.reject(accountNotInConnection(PAPER_TITLE, accountId));
    }
    return store.transaction(
      accountId,
      async (tx) => {
        const account = await tx.getAccount();
        if (!account)
          throw new BrokerError('AuthenticationError', PAPER_TITLE, `account ${accountId} no longer exists; reconnect`);
        const market: Market = { now: clock(ctx)(), quote, instruments };
        const book = openBook(account, tx, market);
        await countOpenCallSales(book);
        await settleExpired(book);
        const result = await work(book, tx);
        if (keep) await save(book);
        return result;
      },
      hint,
    );
  }

  /** The order as this transaction sees it, once its symbol is swept (it may have filled). */
  const latest = async (book: Book, order: PaperOrder) => {
    await sweep(book, [order.symbol]);
    return book.orders.get(order.id) ?? order;
  };

  /** The order with this id or client order id, as this transaction sees it; null when none. */
  const find = (ctx: BrokerContext, session: BrokerSession, accountId: string, by: 'id' | 'clientId', id: string) =>
    withAccount(ctx, session, accountId, async (book, tx) => {
      const order = by === 'id' ? await loadOrder(book, id) : await tx.findOrderByClientId(id);
      return order ? toOrderResponse(await latest(book, order)) : null;
    });

  const broker: PaperBroker = {
    descriptor: paperDescriptor,

    async connect(ctx) {
      const now = clock(ctx)();
      const account: PaperAccount = {
        id: newAccountId(),
        name: 'Paper account',
        currency: 'USD',
        startingCash,
        cash: startingCash,
        positions: [],
        priceScales: {},
        createdAt: now,
        reserved: 0,
        orderSequence: 0,
        openCallSales: {},
      };
      await store.transaction(account.id, async (tx) => {
        if (await tx.getAccount()) throw new Error(`paper account ${account.id} already exists`);
        await tx.putAccount(account);
      });
      return {
        secrets: { accountId: account.id },
        accounts: [
          {
            id: account.id,
            name: account.name,
            dataTitle: account.id,
            dataType: 'cash',
            dataCurrency: 'USD',
            demo: true,
          },
        ],
      };
    },

    // The symbol list's refusals placeOrder gives first (a combo is checked leg by leg with its book).
    checkOrder({ order }) {
      if (order.legs?.length) return;
      const market = { instruments, now: (options.now ?? Date.now)() };
      tradableIn(market, order.symbol, order.class, isExitAction(order.action));
    },

    placeOrder(ctx, session, input) {
      // No wire here: the trade's detail shows what the simulator was asked (core/wire-log.ts).
      recordBrokerRequest({
        method: 'CALL',
        path: 'placeOrder',
        body: { accountId: input.accountId, clientOrderId: input.clientOrderId, order: input.order },
      });
      return withAccount(
        ctx,
        session,
        input.accountId,
        async (book, tx) => {
          // The same client order id again: the first order's answer, nothing placed.
          const existing = await tx.findOrderByClientId(input.clientOrderId);
          if (existing) return toOrderResponse(await latest(book, existing));
          return toOrderResponse(await placeOrder(book, { order: input.order, clientOrderId: input.clientOrderId }));
        },
        true,
        { clientOrderIds: [input.clientOrderId], symbols: [input.order.symbol] },
      );
    },

    previewOrder(ctx, session, input) {
      const preview = async (book: Book): Promise<OrderResponse> => {
        const order = await placeOrder(book, { order: input.order, clientOrderId: input.clientOrderId });
        return {
          id: input.clientOrderId,
          status: 'draft',
          status_description: `Preview, nothing placed. ${order.statusDescription}`,
          ...(order.fillPrice !== undefined ? { price: order.fillPrice } : {}),
        };
      };
      return withAccount(ctx, session, input.accountId, preview, false);
    },

    async cancelOrder(ctx, session, target) {
      const orderId = await orderIdToCancel(broker, ctx, session, target);
      return withAccount(ctx, session, target.accountId, async (book) => {
        const known = await loadOrder(book, orderId);
        if (!known) throw new BrokerError('OrderNotFound', PAPER_TITLE, `order ${orderId} not found`);
        const order = await latest(book, known);
        if (order.status !== 'open')
          throw new BrokerError('InvalidOrder', PAPER_TITLE, `order ${orderId} is already ${order.status}`);
        finish(book, order, 'canceled', 'Canceled on request');
      });
    },

    closePosition(ctx, session, accountId, symbol) {
      return withAccount(ctx, session, accountId, async (book) => {
        const held = symbol.trim().toUpperCase();
        // One symbol may be held in two classes (AAPL as a stock and as a CFD): closing the first
        // found would close one the trader may not mean, so the order must name its class.
        const classes = book.account.positions.filter((p) => p.symbol === held).map((p) => p.class);
        if (classes.length > 1)
          throw invalid(`${held} is held as ${classes.join(' and ')}: close it with an order that names its class`);
        const cls = positionOf(book.account, held)?.class ?? 'stock';
        const order = {
          symbol,
          class: cls,
          action: 'close',
          quantity_type: 'fixed',
          type: 'market',
          duration: 'day',
        } as const;
        return toOrderResponse(await placeOrder(book, { order }));
      });
    },

    findByClientId: (ctx, session, accountId, clientOrderId) =>
      find(ctx, session, accountId, 'clientId', clientOrderId),
    findByBrokerId: (ctx, session, accountId, brokerOrderId) => find(ctx, session, accountId, 'id', brokerOrderId),

    getHoldings(ctx, session, accountId) {
      return withAccount(ctx, session, accountId, async (book): Promise<Holdings> => {
        const view = await describeAccount(book, { orders: 0, fills: 0 });
        return {
          cash: view.cash,
          equity: view.equity,
          buyingPower: view.buyingPower,
          currency: view.currency,
          positions: view.positions.map(({ symbol, quantity, averagePrice, marketValue }) => ({
            symbol,
            quantity,
            averagePrice,
            marketValue,
          })),
        };
      });
    },

    // The price a market order would fill at now: the account's own scale (a signal's extra.price)
    // included; null for a symbol the simulator does not list. Reads only, saves nothing.
    lastPrice(ctx, session, accountId, symbol, cls) {
      return withAccount(
        ctx,
        session,
        accountId,
        (book) => {
          const instrument = instrumentOf(book, symbol.trim().toUpperCase(), cls);
          return instrument.listed ? priceAt(book, instrument, book.market.now) : null;
        },
        false,
      );
    },

    accountView(ctx, session, accountId) {
      return withAccount(ctx, session, accountId, (book) => describeAccount(book));
    },

    resetAccount(ctx, session, accountId) {
      return withAccount(ctx, session, accountId, async (book) => {
        await resetAccount(book);
        return describeAccount(book);
      });
    },
  };
  return broker;
}
