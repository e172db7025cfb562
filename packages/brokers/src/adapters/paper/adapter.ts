// The paper broker: the Broker contract over the simulator and an injected store. Every call
// runs in one store transaction on the account, first catching up on resting orders (sweep).
import { randomInt } from 'node:crypto';
import type { OrderResponse } from '@router/orders';
import type { BrokerContext, BrokerSession, BrokerWith, Holdings } from '../../core/broker.ts';
import { BrokerError } from '../../core/errors.ts';
import { orderIdToCancel } from '../../core/find-order.ts';
import { type Book, finish, type Market, openBook, priceAt, sweep } from './book.ts';
import { paperDescriptor } from './descriptor.ts';
import { buyingPower, equity, positionOf } from './portfolio.ts';
import { roundCash, roundPrice } from './precision.ts';
import { type QuoteSource, syntheticQuote } from './quotes.ts';
import { PAPER_TITLE, placeOrder } from './simulator.ts';
import type { PaperStore, PaperStoreTransaction, TransactionHint } from './store.ts';
import type { PaperAccount, PaperOrder } from './types.ts';

export interface PaperBrokerOptions {
  store: PaperStore;
  /** Cash of a new account, in USD. */
  startingCash?: number;
  /** Clock, when the context brings none. */
  now?: () => number;
  /** Market prices; the synthetic quote by default. */
  quote?: QuoteSource;
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

export type PaperBroker = BrokerWith<
  'previewOrder' | 'cancelOrder' | 'closePosition' | 'getHoldings' | 'findByClientId' | 'findByBrokerId'
>;

export function createPaperBroker(options: PaperBrokerOptions): PaperBroker {
  const { store } = options;
  const quote = options.quote ?? syntheticQuote;
  const startingCash = options.startingCash ?? DEFAULT_STARTING_CASH;
  const newAccountId = options.newAccountId ?? randomAccountId;
  const clock = (ctx: BrokerContext) => ctx.now ?? options.now ?? Date.now;

  /** Runs `work` on the account's book after a sweep; saves the book unless `save` is false. */
  function withAccount<T>(
    ctx: BrokerContext,
    session: BrokerSession,
    accountId: string,
    work: (book: Book, market: Market, tx: PaperStoreTransaction) => Promise<T> | T,
    save = true,
    hint?: TransactionHint,
  ): Promise<T> {
    // The server scopes connections to users; this keeps one connection off another's account.
    if (!session.accounts.some((account) => account.id === accountId)) {
      return Promise.reject(
        new BrokerError('AuthenticationError', PAPER_TITLE, `account ${accountId} is not part of this connection`),
      );
    }
    return store.transaction(
      accountId,
      async (tx) => {
        const account = await tx.getAccount();
        if (!account)
          throw new BrokerError('AuthenticationError', PAPER_TITLE, `account ${accountId} no longer exists; reconnect`);
        const book = openBook(account, await tx.listOpenOrders());
        const market: Market = { now: clock(ctx)(), quote };
        sweep(book, market);
        const result = await work(book, market, tx);
        if (save) {
          await tx.putAccount(book.account);
          for (const order of book.changed.values()) await tx.putOrder(order);
        }
        return result;
      },
      hint,
    );
  }

  /** The order as this transaction sees it (the sweep may have filled it). */
  const latest = (book: Book, order: PaperOrder) => book.changed.get(order.id) ?? order;

  /** The order with this id or client order id, as this transaction sees it; null when none. */
  const find = (ctx: BrokerContext, session: BrokerSession, accountId: string, by: 'id' | 'clientId', id: string) =>
    withAccount(ctx, session, accountId, async (book, _market, tx) => {
      const order = by === 'id' ? (book.changed.get(id) ?? (await tx.getOrder(id))) : await tx.findOrderByClientId(id);
      return order ? toOrderResponse(latest(book, order)) : null;
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
        sweptAt: now,
        orderSequence: 0,
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

    placeOrder(ctx, session, input) {
      return withAccount(
        ctx,
        session,
        input.accountId,
        async (book, market, tx) => {
          // The same client order id again: the first order's answer, nothing placed.
          const existing = await tx.findOrderByClientId(input.clientOrderId);
          if (existing) return toOrderResponse(latest(book, existing));
          return toOrderResponse(placeOrder(book, market, { order: input.order, clientOrderId: input.clientOrderId }));
        },
        true,
        { clientOrderIds: [input.clientOrderId] },
      );
    },

    previewOrder(ctx, session, input) {
      const preview = (book: Book, market: Market): OrderResponse => {
        const order = placeOrder(book, market, { order: input.order, clientOrderId: input.clientOrderId });
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
      return withAccount(ctx, session, target.accountId, async (book, _market, tx) => {
        const open = book.open.find((order) => order.id === orderId);
        if (open) {
          finish(book, open, 'canceled', 'Canceled on request');
          return;
        }
        const known = book.changed.get(orderId) ?? (await tx.getOrder(orderId));
        if (!known) throw new BrokerError('OrderNotFound', PAPER_TITLE, `order ${orderId} not found`);
        throw new BrokerError('InvalidOrder', PAPER_TITLE, `order ${orderId} is already ${known.status}`);
      });
    },

    closePosition(ctx, session, accountId, symbol) {
      return withAccount(ctx, session, accountId, (book, market) => {
        const cls = positionOf(book.account, symbol.trim().toUpperCase())?.class ?? 'stock';
        const order = {
          symbol,
          class: cls,
          action: 'close',
          quantity_type: 'fixed',
          type: 'market',
          duration: 'day',
        } as const;
        return toOrderResponse(placeOrder(book, market, { order }));
      });
    },

    findByClientId: (ctx, session, accountId, clientOrderId) =>
      find(ctx, session, accountId, 'clientId', clientOrderId),
    findByBrokerId: (ctx, session, accountId, brokerOrderId) => find(ctx, session, accountId, 'id', brokerOrderId),

    getHoldings(ctx, session, accountId) {
      return withAccount(ctx, session, accountId, (book, market): Holdings => {
        const prices = priceAt(book, market, market.now);
        return {
          cash: book.account.cash,
          equity: equity(book.account, prices),
          buyingPower: buyingPower(book.account, book.open, prices),
          currency: book.account.currency,
          positions: book.account.positions.map((position) => ({
            symbol: position.symbol,
            quantity: position.quantity,
            averagePrice: roundPrice(position.class, position.averagePrice),
            marketValue: roundCash(position.quantity * prices(position.symbol, position.class)),
          })),
        };
      });
    },
  };
  return broker;
}
