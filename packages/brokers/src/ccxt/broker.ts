// The Broker contract over ccxt, shared by kraken, coinbase, bitmex and woo. Each call builds a
// fresh ccxt instance (credentials, deadline, base URL), so nothing leaks between connections;
// the venue's market list is shared between them (markets.ts), public as it is.

import type { Order, OrderResponse } from '@router/orders';
import type { Order as CcxtOrder, Exchange } from 'ccxt';
import type { Broker, BrokerContext, BrokerSession, BrokerWith } from '../core/broker.ts';
import { cancelEach } from '../core/cancel-each.ts';
import { BrokerError, checkAccountInConnection } from '../core/errors.ts';
import { closeFailedAfterCancel, exitsCutAnswer, exitsNotCutAnswer } from '../core/exits-cut.ts';
import { orderIdToCancel } from '../core/find-order.ts';
import { positiveOnTick } from '../core/ticks.ts';
import { type ErrorMapping, toBrokerError } from './errors.ts';
import { armExchange, createExchange, lastAnswerOf } from './exchange.ts';
import { ExchangePool, setupKey } from './exchange-pool.ts';
import { MARKETS_RELOAD_MS, sharedMarkets } from './markets.ts';
import { closeOrder } from './positions.ts';
import { toHoldings, toOrderResponse } from './readers.ts';
import { findMarket, type MarketInfo, preferredKind } from './symbols.ts';
import type { CcxtVenue, OrderArgs } from './venue.ts';

const DEFAULT_ACCOUNT_ID = 'default';

/** ccxt's precisionMode of a price given as the tick size itself (bitmex, coinbase, kraken, woo). */
const TICK_SIZE = 4;

/** The createOrder params that carry a stop's trigger price (Kraken; BitMEX and Coinbase). */
const STOP_PARAMS = ['stopLossPrice', 'triggerPrice'] as const;

const isSandbox = (values: Readonly<Record<string, string>>) => /^(1|true|yes|on)$/i.test(values.sandbox ?? '');

/** What every ccxt exchange has; finding by client id, or by listing, as `has` says. */
export type CcxtBroker = BrokerWith<'checkOrder' | 'cancelOrder' | 'closePosition' | 'getHoldings' | 'findByBrokerId'>;

export function createCcxtBroker(venue: CcxtVenue): CcxtBroker {
  const { descriptor } = venue;
  const title = descriptor.title;
  const mapping: ErrorMapping = {
    title,
    exchangeId: descriptor.name,
    readMessage: venue.readMessage,
    ...(descriptor.exceptions ? { exceptions: descriptor.exceptions } : {}),
  };

  /**
   * The connection's exchange: its credentials, the call's deadline (`ctx.signal`). `publicOnly`:
   * no credentials, for what loads the venue's market list.
   */
  async function exchangeFor(
    ctx: BrokerContext,
    secrets: Readonly<Record<string, string>>,
    publicOnly = false,
  ): Promise<Exchange> {
    const exchange = await createExchange(venue.exchangeClass, {
      ...(publicOnly ? {} : { credentials: venue.credentials(secrets) }),
      baseUrl: ctx.baseUrl,
      defaultBaseUrl: descriptor.baseUrl,
      sandbox: venue.sandbox === true && isSandbox(secrets),
      ...(ctx.signal ? { signal: ctx.signal } : {}),
      ...(venue.options ? { options: venue.options } : {}),
      ...(venue.currencies ? { currencies: true } : {}),
    });
    venue.configure?.(exchange);
    return exchange;
  }

  const pool = new ExchangePool();

  /**
   * Runs `work` on an exchange of the connection (its credentials, the call's deadline), an idle
   * one of the same setup when there is one (exchange-pool.ts), given back once `work` is done.
   */
  async function withExchange<T>(
    ctx: BrokerContext,
    secrets: Readonly<Record<string, string>>,
    work: (exchange: Exchange) => Promise<T>,
  ): Promise<T> {
    const key = setupKey([ctx.baseUrl, secrets]);
    const idle = pool.take(key);
    if (idle) armExchange(idle, ctx.signal);
    const exchange = idle ?? (await exchangeFor(ctx, secrets));
    try {
      return await work(exchange);
    } finally {
      pool.give(key, exchange);
    }
  }

  /**
   * The venue's markets on `exchange` (markets.ts), an aged list refreshed in the background, on
   * an instance without the call's deadline: the call may be over first.
   */
  function marketsOn(exchange: Exchange, ctx: BrokerContext, secrets: Readonly<Record<string, string>>) {
    const { signal: _callsDeadline, ...background } = ctx;
    return call(exchange, () => sharedMarkets(exchange, { refresher: () => exchangeFor(background, secrets, true) }));
  }

  /**
   * Runs a call on the exchange; failures become BrokerErrors (`submission`: it may have placed an
   * order; `onOrder`: it acts on one order, a cancel too).
   */
  async function call<T>(
    exchange: Exchange,
    work: () => Promise<T>,
    submission = false,
    onOrder = submission,
  ): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw toBrokerError(error, mapping, submission, lastAnswerOf(exchange), onOrder);
    }
  }

  function checkAccount(session: BrokerSession, accountId: string): void {
    checkAccountInConnection(title, session, accountId);
  }

  async function marketFor(
    exchange: Exchange,
    ctx: BrokerContext,
    session: BrokerSession,
    symbol: string,
    extra?: Record<string, string | number | boolean>,
  ) {
    const kind = preferredKind(extra) ?? venue.defaultKind;
    const market =
      findMarket(await marketsOn(exchange, ctx, session.secrets), symbol, kind) ??
      // Not in the list held: listed since, maybe (loaded again at most once a minute).
      findMarket(await call(exchange, () => sharedMarkets(exchange, { maxAge: MARKETS_RELOAD_MS })), symbol, kind);
    if (!market) throw new BrokerError('InvalidOrder', title, `unknown symbol ${symbol}`);
    return market;
  }

  /** What of the position a close sells: a fixed quantity, or (undefined) all of it. */
  function closeQuantity(order: Order): number | undefined {
    if (order.quantity !== undefined && order.quantity_type !== 'fixed')
      throw new BrokerError('InvalidOrder', title, 'close takes a fixed quantity');
    return order.quantity;
  }

  /** ccxt truncates amounts to the lot size; a material change (150 → 100 contracts) is refused. */
  function checkLot(exchange: Exchange, market: MarketInfo, amount: number): void {
    let rounded = 0;
    try {
      rounded = Number(exchange.amountToPrecision(market.symbol, amount));
    } catch {}
    if (!(rounded > 0) || Math.abs(rounded - amount) / amount > 0.001)
      throw new BrokerError('InvalidOrder', title, `quantity ${amount} does not fit the lot size of ${market.id}`);
  }

  /**
   * ccxt rounds a price to the nearest tick (60000.3 → 60000.5 at BitMEX): a limit price goes to
   * the tick on the trader's side instead, a buy down and a sell up, so it never pays more or
   * sells for less than the signal said. A stop trigger goes the same way, which keeps a
   * stop-limit's limit on its side of the stop (to the nearest, a sell's stop of 60000.04 went to
   * 60000.0, under its limit of 60000.01 → 60000.1: a limit that cannot fill as the price falls).
   */
  function limitOnTick(exchange: Exchange, market: MarketInfo, args: OrderArgs): OrderArgs {
    const tick = exchange.markets?.[market.symbol]?.precision?.price;
    if (typeof tick !== 'number' || !(tick > 0) || exchange.precisionMode !== TICK_SIZE) return args;
    const direction = args.side === 'buy' ? 'down' : 'up';
    // Under one tick a buy's price would be 0: refused (positiveOnTick), never sent so.
    const onTick = (price: number, field: string) =>
      positiveOnTick(
        price,
        tick,
        direction,
        (message) => new BrokerError('InvalidOrder', title, `${field} ${message}`),
      );
    const params = { ...args.params };
    for (const key of STOP_PARAMS) {
      const stop = params[key];
      if (typeof stop === 'number' && stop > 0) params[key] = onTick(stop, key);
    }
    return {
      ...args,
      ...(args.price !== undefined ? { price: onTick(args.price, 'price') } : {}),
      params,
    };
  }

  /**
   * The answer to a createOrder. One that names no order (an empty or garbled 200, which ccxt reads
   * as an order without id) proves nothing: the order may stand or not, and is looked up by our id.
   */
  function answerOf(placed: CcxtOrder): OrderResponse {
    if (!placed.id)
      throw new BrokerError('BrokerUnavailable', title, 'the answer names no order', { outcomeUnknown: true });
    return toOrderResponse(placed);
  }

  async function existing(exchange: Exchange, clientOrderId: string, since?: number): Promise<OrderResponse | null> {
    const found = await call(exchange, () => venue.findByClientId(exchange, clientOrderId, since));
    return found ? toOrderResponse(found) : null;
  }

  /** `work` on an exchange of the connection, its markets loaded (lookups and cancels name no symbol). */
  async function withLoaded<T>(
    ctx: BrokerContext,
    session: BrokerSession,
    accountId: string,
    work: (exchange: Exchange) => Promise<T>,
  ): Promise<T> {
    checkAccount(session, accountId);
    return withExchange(ctx, session.secrets, async (exchange) => {
      await marketsOn(exchange, ctx, session.secrets);
      return work(exchange);
    });
  }

  const findByClientId: Broker['findByClientId'] = async (ctx, session, accountId, clientOrderId) =>
    withLoaded(ctx, session, accountId, (exchange) => existing(exchange, clientOrderId));

  const listRecentOrders: Broker['listRecentOrders'] = async (ctx, session, query) => {
    const found = await withLoaded(ctx, session, query.accountId, (exchange) =>
      existing(exchange, query.clientOrderId, query.from),
    );
    return found ? [{ order: found, match: 'id' }] : [];
  };

  /** Cancels the market's open orders; the ids of those canceled. */
  async function cancelOpen(exchange: Exchange, market: MarketInfo): Promise<string[]> {
    const open = await call(exchange, () => exchange.fetchOpenOrders(market.symbol));
    const ids = open.map((order) => order.id).filter((id): id is string => Boolean(id));
    return cancelEach(ids, market.symbol, (id) =>
      call(exchange, () => exchange.cancelOrder(id, market.symbol), false, true),
    );
  }

  /**
   * Closes the position, or `part` of it (a close signal's quantity). A close of all of it cancels
   * the market's open orders first; a close of part keeps them, since they include the stop-loss
   * and take-profit orders of the part still held, cut to that part where they could sell more
   * (fitExits) (at a spot venue, what open sells hold back is not free: a part beyond the free
   * balance cancels them and is a close of what is held). A close signal's closing order carries
   * its `clientOrderId`: a lost answer is then looked up like any order's, where the exchange's
   * own id of it would prove nothing (Coinbase's listing found no order of ours: "nothing placed").
   */
  async function close(
    exchange: Exchange,
    market: MarketInfo,
    part?: number,
    clientOrderId?: string,
  ): Promise<OrderResponse> {
    const order = () => call(exchange, () => closeOrder(exchange, market, venue.positions === true, part));
    let args = part === undefined ? undefined : await order();
    let canceled: string[] = [];
    if (!args?.partial) {
      canceled = await cancelOpen(exchange, market);
      args = await order().catch((error: unknown) => {
        throw closeFailedAfterCancel(error, market.symbol, canceled);
      });
    }
    if (!args) throw new BrokerError('InvalidOrder', title, `no position in ${market.symbol} to close`);
    const { side, amount, params } = args;
    const placed = await call(
      exchange,
      () =>
        exchange.createOrder(market.symbol, 'market', side, amount, undefined, {
          ...params,
          ...(clientOrderId !== undefined ? venue.clientIdParams(clientOrderId) : {}),
        }),
      true,
    ).catch((error: unknown) => {
      // The market's open orders (its stop loss and take profit among them) are gone by now.
      throw closeFailedAfterCancel(error, market.symbol, canceled);
    });
    const answer = answerOf(placed);
    if (!args.partial || !market.swap || venue.positions !== true || venue.amendsQuantity !== true) return answer;
    return fitExits(exchange, market, args.side, args.left, answer);
  }

  /**
   * After a close of part of a swap position, its exits (the market's open orders on the closing
   * side, not reduce-only) are cut to the `left` still held: sized for the whole position, a stop
   * triggered later sold more than was held and opened a position the other way. At a spot venue
   * nothing is needed: an open sell holds back its coins, and the close sells only free ones. The
   * close stands whatever happens here: a failure is told in its answer.
   */
  async function fitExits(
    exchange: Exchange,
    market: MarketInfo,
    side: 'buy' | 'sell',
    left: number,
    answer: OrderResponse,
  ): Promise<OrderResponse> {
    const cut: string[] = [];
    try {
      const open = await call(exchange, () => exchange.fetchOpenOrders(market.symbol));
      for (const order of open) {
        const id = order.id ?? '';
        const filled = order.filled ?? 0;
        const remaining = order.remaining ?? (order.amount ?? 0) - filled;
        if (!id || id === answer.id || order.side !== side || order.reduceOnly === true || !(remaining > left))
          continue;
        // The order's quantity counts what it filled already: what it has still to fill becomes `left`.
        await call(
          exchange,
          () => exchange.editOrder(id, market.symbol, order.type ?? 'limit', side, filled + left),
          false,
          true,
        );
        cut.push(id);
      }
    } catch (error) {
      return exitsNotCutAnswer(answer, `the ${left} left`, error, cut);
    }
    return exitsCutAnswer(answer, `the ${left} left`, cut);
  }

  // The exchange's ticker for the market an order would go to: its last trade, else the
  // bid/ask midpoint; an unknown symbol is refused as an order for it would be.
  const lastPrice: Broker['lastPrice'] = async (ctx, session, accountId, symbol) => {
    checkAccount(session, accountId);
    const ticker = await withExchange(ctx, session.secrets, async (exchange) => {
      const market = await marketFor(exchange, ctx, session, symbol);
      return call(exchange, () => exchange.fetchTicker(market.symbol));
    });
    if (typeof ticker.last === 'number' && ticker.last > 0) return ticker.last;
    const { bid, ask } = ticker;
    return typeof bid === 'number' && typeof ask === 'number' && bid > 0 && ask > 0 ? (bid + ask) / 2 : null;
  };

  const broker: CcxtBroker = {
    descriptor,

    // The venue's market list, shared by every connection's first order (markets.ts).
    async warm(ctx) {
      const exchange = await exchangeFor(ctx, {}, true);
      await call(exchange, () => sharedMarkets(exchange));
    },

    async connect(ctx, input) {
      const secrets = { ...input.credentials };
      const balances = await withExchange(ctx, secrets, async (exchange) => {
        // fetchBalance loads the markets first: the shared list, so the first order finds it held.
        await marketsOn(exchange, ctx, secrets);
        return call(exchange, () => exchange.fetchBalance());
      });
      const holdings = toHoldings(balances, [], venue.positions === true);
      return {
        secrets,
        accounts: [
          {
            id: DEFAULT_ACCOUNT_ID,
            name: `${title} account`,
            dataTitle: title,
            dataType: venue.positions ? 'margin' : 'cash',
            ...(holdings.currency ? { dataCurrency: holdings.currency } : {}),
            demo: venue.sandbox === true && isSandbox(secrets),
          },
        ],
      };
    },

    // placeOrder's own checks of the order, short of its market (the symbol, lot and tick sizes).
    checkOrder({ order, clientOrderId }) {
      if (order.action === 'close') closeQuantity(order);
      else if (order.action !== 'cancel') venue.orderArgs(order, undefined, clientOrderId);
    },

    async placeOrder(ctx, session, input) {
      checkAccount(session, input.accountId);
      const { order, clientOrderId } = input;
      return withExchange(ctx, session.secrets, async (exchange) => {
        const market = await marketFor(exchange, ctx, session, order.symbol, order.extra);
        if (order.action === 'close') return close(exchange, market, closeQuantity(order), clientOrderId);
        if (order.action === 'cancel') {
          const { length } = await cancelOpen(exchange, market);
          return { id: clientOrderId, status: 'canceled', status_description: `${length} open orders canceled` };
        }
        const built = venue.orderArgs(order, market, clientOrderId);
        const args = limitOnTick(exchange, market, venue.onMarket?.(exchange, market, built) ?? built);
        // A cash quantity (`cost`) is in the quote currency: the base lot size says nothing of it.
        if (args.params.cost === undefined) checkLot(exchange, market, args.amount);
        try {
          const placed = await exchange.createOrder(
            market.symbol,
            args.type,
            args.side,
            args.amount,
            args.price,
            args.params,
          );
          return answerOf(placed);
        } catch (error) {
          const mapped = toBrokerError(error, mapping, true, lastAnswerOf(exchange));
          if (mapped.kind !== 'DuplicateOrder') throw mapped;
          // The client order id was used already: that order is the answer, nothing new is placed.
          // A lookup that fails proves nothing of it: the duplicate stands (an order may exist, the
          // outcome is unknown), never a refusal that would say nothing was placed.
          const found = await existing(exchange, clientOrderId).catch(() => null);
          if (found) return found;
          throw mapped;
        }
      });
    },

    async cancelOrder(ctx, session, target) {
      // The order's id first: finding it by ours takes an exchange of its own.
      const orderId = await orderIdToCancel(broker, ctx, session, target);
      await withLoaded(ctx, session, target.accountId, (exchange) =>
        call(
          exchange,
          () => (venue.cancel ? venue.cancel(exchange, orderId) : exchange.cancelOrder(orderId)),
          false,
          true,
        ),
      );
    },

    async closePosition(ctx, session, accountId, symbol) {
      checkAccount(session, accountId);
      return withExchange(ctx, session.secrets, async (exchange) =>
        close(exchange, await marketFor(exchange, ctx, session, symbol)),
      );
    },

    ...(descriptor.has.findOrderByClientId ? { findByClientId } : {}),
    ...(descriptor.has.listRecentOrders ? { listRecentOrders } : {}),
    ...(descriptor.has.lastPrice ? { lastPrice } : {}),

    async findByBrokerId(ctx, session, accountId, orderId) {
      return withLoaded(ctx, session, accountId, async (exchange) => {
        try {
          return toOrderResponse(await exchange.fetchOrder(orderId));
        } catch (error) {
          const mapped = toBrokerError(error, mapping, false, lastAnswerOf(exchange));
          if (mapped.kind === 'OrderNotFound') return null;
          throw mapped;
        }
      });
    },

    async getHoldings(ctx, session, accountId) {
      return withLoaded(ctx, session, accountId, async (exchange) => {
        const balances = await call(exchange, () => exchange.fetchBalance());
        const positions = venue.positions ? await call(exchange, () => exchange.fetchPositions()) : [];
        return toHoldings(balances, positions, venue.positions === true);
      });
    },
  };
  return broker;
}
