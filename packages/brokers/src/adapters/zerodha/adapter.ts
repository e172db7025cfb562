// Zerodha (Kite Connect v3): a daily login through Kite (request token → access token until 6 AM
// IST), form-encoded orders on NSE, BSE and the derivatives exchanges, our signal id as the order's
// tag. Kite neither refuses a repeated tag nor looks one up: a lost order is found by its tag in the
// day's order book, or by Kite's order id in its history.
import { type OrderResponse, parseSymbol } from '@router/orders';
import type { BrokerContext, BrokerWith } from '../../core/broker.ts';
import { BrokerError } from '../../core/errors.ts';
import { asRecord, decimalField } from '../../core/json-read.ts';
import { checkAccount, createKiteApi } from './api.ts';
import { ZERODHA_TITLE, zerodhaDescriptor } from './descriptor.ts';
import { cancelSymbol, closeSymbol } from './exits.ts';
import { authorizationUrl, exchangeRequestToken } from './login.ts';
import { findById, listByTag, liveByTag, orderState } from './lookup.ts';
import { toKiteOrder } from './mapper.ts';
import { cancelKiteOrder, submitOrder } from './orders.ts';
import { positionsOf } from './reader.ts';
import { instrumentKey, kiteInstrument } from './symbols.ts';

export interface ZerodhaBrokerOptions {
  /** Clock when the context brings none. */
  now?: () => number;
  fetch?: typeof fetch;
}

export type ZerodhaBroker = BrokerWith<
  | 'authorizationUrl'
  | 'checkOrder'
  | 'cancelOrder'
  | 'closePosition'
  | 'getHoldings'
  | 'findByBrokerId'
  | 'listRecentOrders'
  | 'lastPrice'
>;

export function createZerodhaBroker(options: ZerodhaBrokerOptions = {}): ZerodhaBroker {
  const now = (ctx: BrokerContext) => (ctx.now ?? options.now ?? Date.now)();
  const api = createKiteApi(options.fetch ? { fetch: options.fetch } : {});

  const broker: ZerodhaBroker = {
    descriptor: zerodhaDescriptor,
    authorizationUrl,

    async connect(ctx, input) {
      const requestToken = (input.credentials.request_token ?? input.credentials.code)?.trim();
      if (!requestToken) throw new BrokerError('AuthenticationError', ZERODHA_TITLE, 'no request token; sign in again');
      const login = await exchangeRequestToken(ctx, requestToken, now(ctx), options.fetch);
      return {
        secrets: { apiKey: login.apiKey, accessToken: login.accessToken },
        accounts: [login.account],
        expiresAt: login.expiresAt,
      };
    },

    // placeOrder's own mapping: the instrument of a cancel or close, the whole order otherwise.
    checkOrder({ order, clientOrderId }) {
      if (order.action === 'cancel' || order.action === 'close') kiteInstrument(order);
      else toKiteOrder(order, clientOrderId);
    },

    async placeOrder(ctx, session, { accountId, order, clientOrderId }): Promise<OrderResponse> {
      checkAccount(session, accountId);
      if (order.action === 'cancel') return cancelSymbol(api, ctx, session, kiteInstrument(order), clientOrderId);
      if (order.action === 'close') {
        const protection = order.extra?.market_protection;
        return closeSymbol(api, ctx, session, kiteInstrument(order), {
          ...(order.quantity !== undefined ? { part: order } : {}),
          clientOrderId,
          ...(protection !== undefined ? { marketProtection: String(protection) } : {}),
        });
      }
      const { variety, form } = toKiteOrder(order, clientOrderId);
      return submitOrder(api, ctx, session, variety, form);
    },

    async cancelOrder(ctx, session, { accountId, brokerOrderId, clientOrderId }) {
      checkAccount(session, accountId);
      if (brokerOrderId) {
        // Unknown to its history: sent as a regular order's cancel, and Kite's answer decides.
        const state = (await orderState(api, ctx, session, brokerOrderId)) ?? { order_id: brokerOrderId };
        await cancelKiteOrder(api, ctx, session, state);
        return;
      }
      const live = clientOrderId ? await liveByTag(api, ctx, session, clientOrderId) : undefined;
      if (!live)
        throw new BrokerError(
          'OrderNotFound',
          ZERODHA_TITLE,
          `no open order with client order id ${clientOrderId ?? ''}`,
        );
      await cancelKiteOrder(api, ctx, session, live);
    },

    closePosition(ctx, session, accountId, symbol) {
      checkAccount(session, accountId);
      const parsed = parseSymbol(symbol);
      return closeSymbol(api, ctx, session, kiteInstrument({ ...parsed, symbol: parsed.canonical }));
    },

    findByBrokerId(ctx, session, accountId, orderId) {
      checkAccount(session, accountId);
      return findById(api, ctx, session, orderId);
    },

    listRecentOrders(ctx, session, query) {
      checkAccount(session, query.accountId);
      return listByTag(api, ctx, session, query, now(ctx));
    },

    // GET /quote/ltp?i=EXCHANGE:TRADINGSYMBOL, the instrument an order for the symbol would name
    // (the order's exchange, else an EXCHANGE: prefix, else Kite's default for the class). Kite
    // leaves an instrument it does not know out of `data`.
    async lastPrice(ctx, session, accountId, symbol, cls, orderExchange) {
      checkAccount(session, accountId);
      const parsed = parseSymbol(symbol);
      const { exchange, tradingsymbol } = kiteInstrument({
        ...parsed,
        symbol: parsed.canonical,
        class: cls,
        ...(orderExchange ? { exchange: orderExchange } : {}),
      });
      const key = instrumentKey(exchange, tradingsymbol);
      const data = await api.call(ctx, session, { path: '/quote/ltp', query: { i: key } });
      const last = decimalField(asRecord(asRecord(data)?.[key]), 'last_price');
      if (last === undefined) throw new BrokerError('InvalidOrder', ZERODHA_TITLE, `Kite quotes no instrument ${key}`);
      return last;
    },

    async getHoldings(ctx, session, accountId) {
      checkAccount(session, accountId);
      const [margins, holdings, positions] = await Promise.all([
        api.call(ctx, session, { path: '/user/margins' }),
        api.call(ctx, session, { path: '/portfolio/holdings' }),
        api.call(ctx, session, { path: '/portfolio/positions' }),
      ]);
      const equity = asRecord(asRecord(margins)?.equity);
      const cash = decimalField(asRecord(equity?.available), 'cash');
      const net = decimalField(equity, 'net');
      return {
        ...(cash !== undefined ? { cash } : {}),
        ...(net !== undefined ? { buyingPower: net } : {}),
        currency: 'INR',
        positions: positionsOf(holdings, positions),
      };
    },
  };
  return broker;
}
