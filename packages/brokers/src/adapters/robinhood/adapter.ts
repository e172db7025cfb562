// Robinhood's Crypto Trading API (WIRE.md): an API key and an Ed25519 private key sign every
// request; crypto against USD only; our signal id goes out as a UUID client_order_id. There is no
// lookup by that id, so an order is found again by its id or in the list of recent orders.
import { randomUUID } from 'node:crypto';
import type { Order } from '@router/orders';
import type { BrokerContext, BrokerSession, BrokerWith, Holdings } from '../../core/broker.ts';
import { BrokerError } from '../../core/errors.ts';
import { orderIdToCancel } from '../../core/find-order.ts';
import { decimalField, stringField } from '../../core/json-read.ts';
import { cancelById, cancelOpenOrders, holdings, submitOrder } from './account-orders.ts';
import { accountBody, accountRefOf, accountsOf, keysOf } from './accounts.ts';
import { createRobinhoodApi, type RobinhoodKeys } from './api.ts';
import { robinhoodClientOrderId } from './client-order-id.ts';
import { ROBINHOOD_TITLE, robinhoodDescriptor } from './descriptor.ts';
import { findById, type Listing, listByClientId } from './lookup.ts';
import { closeOrder, toRobinhoodOrder } from './mapper.ts';
import { createPairCache, pairSymbol, type TradingPair } from './pairs.ts';
import { quoteMid } from './quote.ts';
import { createRateLimiter } from './rate-limit.ts';
import { privateKeyFrom } from './signing.ts';

export interface RobinhoodBrokerOptions {
  now?: () => number;
  fetch?: typeof fetch;
}

export type RobinhoodBroker = BrokerWith<
  | 'checkOrder'
  | 'previewOrder'
  | 'cancelOrder'
  | 'closePosition'
  | 'getHoldings'
  | 'findByBrokerId'
  | 'listRecentOrders'
  | 'lastPrice'
>;

const refuseAuth = (message: string) => new BrokerError('AuthenticationError', ROBINHOOD_TITLE, message);

export function createRobinhoodBroker(options: RobinhoodBrokerOptions = {}): RobinhoodBroker {
  const now = (ctx: BrokerContext) => (ctx.now ?? options.now ?? Date.now)();
  const api = createRobinhoodApi({
    now,
    limiter: createRateLimiter(),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const pairs = createPairCache(api);

  const listingOf = (ctx: BrokerContext, session: BrokerSession, accountId: string): Listing => ({
    api,
    ctx,
    keys: keysOf(session),
    ref: accountRefOf(session, accountId),
  });

  /** The coins of the pair available for trading; none is a refusal (saying so when open orders hold them). */
  async function available(listing: Listing, pair: TradingPair): Promise<number> {
    const [held] = await holdings(listing, pair.assetCode);
    if (!held || held.available <= 0) {
      // Coins a sell order holds are not available: a take profit for all of them leaves none to close.
      const asset = pair.assetCode;
      const message =
        held && held.total > 0
          ? `no ${asset} available to sell: the ${held.total} ${asset} held are in open orders (the cancel action frees them)`
          : `no ${asset} to sell`;
      throw new BrokerError('InvalidOrder', ROBINHOOD_TITLE, message);
    }
    return held.available;
  }

  /**
   * close: a market sell of the coins available: all, `quantity` percent of them, or `quantity`
   * coins (never more than are available).
   */
  /** The order body for a buy, sell or close: checked, then completed with the pair (and the coins held). */
  async function orderRequest(listing: Listing, order: Order, clientOrderId: string) {
    pairSymbol(order.symbol);
    const toPair = order.action === 'close' ? closeOrder(order, clientOrderId) : toRobinhoodOrder(order, clientOrderId);
    const pair = await pairs.pair(listing.ctx, listing.keys, listing.ref, order.symbol, now(listing.ctx));
    const held =
      order.action === 'close' || order.quantity_type === 'percent_of_position'
        ? await available(listing, pair)
        : undefined;
    return toPair(pair, held);
  }

  const broker: RobinhoodBroker = {
    descriptor: robinhoodDescriptor,

    async connect(ctx, input) {
      const apiKey = input.credentials.apiKey?.trim() ?? '';
      const privateKey = input.credentials.privateKey?.trim() ?? '';
      if (!apiKey || /\s/.test(apiKey)) throw refuseAuth('the API key (rh-api-…) is required');
      const key = privateKeyFrom(privateKey);
      if (!key) throw refuseAuth('the private key must be the base64 Ed25519 private key the API key was made for');
      const keys: RobinhoodKeys = { apiKey, privateKey: key };
      const v1 = await api.call(ctx, keys, { path: '/api/v1/crypto/trading/accounts/', accept: [404] });
      const v2 = await api.call(ctx, keys, { path: '/api/v2/crypto/trading/accounts/', accept: [404] });
      const accounts = accountsOf(v1.status === 404 ? undefined : v1.body, v2.status === 404 ? undefined : v2.body);
      if (!accounts.length) throw refuseAuth('no active crypto account for this API key');
      return { secrets: { apiKey, privateKey }, accounts };
    },

    // placeOrder's own checks, up to the pair lookup.
    checkOrder({ order, clientOrderId }) {
      pairSymbol(order.symbol);
      const id = robinhoodClientOrderId(clientOrderId);
      if (order.action === 'close') closeOrder(order, id);
      else if (order.action !== 'cancel') toRobinhoodOrder(order, id);
    },

    async placeOrder(ctx, session, { accountId, order, clientOrderId }) {
      const listing = listingOf(ctx, session, accountId);
      if (order.action === 'cancel') return cancelOpenOrders(listing, pairSymbol(order.symbol));
      const request = await orderRequest(listing, order, robinhoodClientOrderId(clientOrderId));
      return submitOrder(listing, request, clientOrderId, now(ctx));
    },

    // Robinhood has no preview call: the order is checked against the pair (and the coins held)
    // and built as it would be sent, so the playground refuses what Robinhood would refuse.
    async previewOrder(ctx, session, { accountId, order, clientOrderId }) {
      const listing = listingOf(ctx, session, accountId);
      const draft = (description: string) => ({
        id: clientOrderId,
        status: 'draft' as const,
        status_description: description,
      });
      if (order.action === 'cancel')
        return draft(`Preview: would cancel the open orders of ${pairSymbol(order.symbol)}`);
      const request = await orderRequest(listing, order, robinhoodClientOrderId(clientOrderId));
      return draft(`Preview, nothing sent: ${JSON.stringify(request)}`);
    },

    async cancelOrder(ctx, session, target) {
      const listing = listingOf(ctx, session, target.accountId);
      await cancelById(listing, await orderIdToCancel(broker, ctx, session, target));
    },

    async closePosition(ctx, session, accountId, symbol) {
      const listing = listingOf(ctx, session, accountId);
      const pair = await pairs.pair(ctx, listing.keys, listing.ref, symbol, now(ctx));
      // A direct close carries no signal id: a UUID of its own.
      const id = randomUUID();
      return submitOrder(listing, closeOrder({}, id)(pair, await available(listing, pair)), id, now(ctx));
    },

    findByBrokerId: (ctx, session, accountId, orderId) => findById(listingOf(ctx, session, accountId), orderId),

    listRecentOrders(ctx, session, query) {
      const listing = listingOf(ctx, session, query.accountId);
      let symbol: string | undefined;
      try {
        symbol = query.order ? pairSymbol(query.order.symbol) : undefined;
      } catch {
        symbol = undefined;
      }
      return listByClientId(listing, query.clientOrderId, {
        from: query.from,
        to: query.to,
        ...(symbol ? { symbol } : {}),
      });
    },

    // The pair an order would trade (an unlisted one is refused as an order is), then its quote.
    async lastPrice(ctx, session, accountId, symbol) {
      const listing = listingOf(ctx, session, accountId);
      const pair = await pairs.pair(ctx, listing.keys, listing.ref, symbol, now(ctx));
      return quoteMid(api, ctx, listing.keys, pair.symbol);
    },

    async getHoldings(ctx, session, accountId): Promise<Holdings> {
      const listing = listingOf(ctx, session, accountId);
      const { body } = await api.call(ctx, listing.keys, {
        path: `/api/${listing.ref.version}/crypto/trading/accounts/`,
      });
      const account = accountBody(listing.ref, body);
      const cash = decimalField(account, 'buying_power');
      return {
        ...(cash !== undefined ? { cash, buyingPower: cash } : {}),
        currency: stringField(account, 'buying_power_currency') ?? 'USD',
        positions: (await holdings(listing)).map((held) => ({ symbol: `${held.assetCode}-USD`, quantity: held.total })),
      };
    },
  };
  return broker;
}
