// tastytrade Open API: OAuth 2 sign-in, accounts by number, orders as tastytrade's order JSON
// (brackets as complex orders). tastytrade does not deduplicate orders and finds none by a
// client id; our signal id goes out as the external-identifier, which the order history echoes,
// so a lost order is found by it among the orders entered around the send time.
import { parseSymbol } from '@router/orders';
import type { BrokerAccount, BrokerContext, BrokerSession, BrokerWith } from '../../core/broker.ts';
import { BrokerError } from '../../core/errors.ts';
import { orderIdToCancel } from '../../core/find-order.ts';
import { accountPath, cancelOpenOrders, closeSymbol, orderRequest, preview, submit } from './account-orders.ts';
import { createTastyApi } from './api.ts';
import { TASTYTRADE_SANDBOX_URL, TASTYTRADE_TITLE, tastytradeDescriptor } from './descriptor.ts';
import { findById, listById, liveOrderIdByOurs } from './lookup.ts';
import { authorizationUrl, exchangeCode, REFRESH_MARGIN_MS, secretsOf, type TastyTokens } from './oauth.ts';
import { holdingsOf, toAccounts } from './reader.ts';

export interface TastytradeBrokerOptions {
  /** Clock when the context brings none. */
  now?: () => number;
  fetch?: typeof fetch;
}

/** The refresh token does not expire: no expiresAt, only the access token's refresh time. */
function sessionOf(tokens: TastyTokens, accounts: BrokerAccount[]): BrokerSession {
  return { secrets: secretsOf(tokens), accounts, refreshAt: tokens.accessExpiresAt - REFRESH_MARGIN_MS };
}

export type TastytradeBroker = BrokerWith<
  | 'authorizationUrl'
  | 'checkOrder'
  | 'refresh'
  | 'previewOrder'
  | 'cancelOrder'
  | 'closePosition'
  | 'getHoldings'
  | 'findByBrokerId'
  | 'listRecentOrders'
>;

export function createTastytradeBroker(options: TastytradeBrokerOptions = {}): TastytradeBroker {
  const now = (ctx: BrokerContext) => (ctx.now ?? options.now ?? Date.now)();
  const api = createTastyApi({ now, ...(options.fetch ? { fetch: options.fetch } : {}) });

  const broker: TastytradeBroker = {
    descriptor: tastytradeDescriptor,
    authorizationUrl,

    async connect(ctx, input) {
      const code = input.credentials.code?.trim();
      if (!code) throw new BrokerError('AuthenticationError', TASTYTRADE_TITLE, 'no authorization code; sign in again');
      const tokens = await exchangeCode(ctx, code, now(ctx), options.fetch);
      const signedIn = sessionOf(tokens, []);
      const { body } = await api.call(ctx, signedIn, { path: '/customers/me/accounts' });
      const accounts = toAccounts(body, ctx.baseUrl === TASTYTRADE_SANDBOX_URL);
      if (accounts.length === 0) throw new BrokerError('AuthenticationError', TASTYTRADE_TITLE, 'no open account');
      return sessionOf(tokens, accounts);
    },

    async refresh(ctx, session) {
      return sessionOf(await api.refresh(ctx, session), session.accounts);
    },

    // placeOrder's own mapping of an order it sends as given.
    checkOrder({ order, clientOrderId }) {
      if (order.action !== 'close' && order.action !== 'cancel') orderRequest(order, clientOrderId);
    },

    async placeOrder(ctx, session, { accountId, order, clientOrderId }) {
      if (order.action === 'close') return closeSymbol(api, ctx, session, accountId, order, clientOrderId);
      if (order.action === 'cancel') return cancelOpenOrders(api, ctx, session, accountId, order);
      return submit(api, ctx, session, accountId, orderRequest(order, clientOrderId));
    },

    async previewOrder(ctx, session, { accountId, order, clientOrderId }) {
      if (order.action === 'close' || order.action === 'cancel') {
        accountPath(session, accountId);
        return { id: clientOrderId, status: 'draft', status_description: `Preview of ${order.action}: nothing sent` };
      }
      return preview(api, ctx, session, accountId, orderRequest(order, clientOrderId), clientOrderId);
    },

    async cancelOrder(ctx, session, target) {
      const path = accountPath(session, target.accountId);
      const { accountId, brokerOrderId, clientOrderId } = target;
      // By our id: found among the live orders (no send time is known here to search the history).
      const ours =
        !brokerOrderId && clientOrderId && (await liveOrderIdByOurs(api, ctx, session, accountId, clientOrderId));
      if (!brokerOrderId && clientOrderId && !ours) {
        throw new BrokerError('OrderNotFound', TASTYTRADE_TITLE, `no live order with client order id ${clientOrderId}`);
      }
      const id = ours || (await orderIdToCancel(broker, ctx, session, target));
      // Asynchronous at tastytrade: answered 'Cancel Requested', 'Cancelled' follows. Canceling a
      // bracket's entry (our id for it) leaves its exits nothing to trigger on.
      await api.call(ctx, session, { method: 'DELETE', path: `${path}/orders/${encodeURIComponent(id)}` });
    },

    async closePosition(ctx, session, accountId, symbol) {
      const parsed = parseSymbol(symbol);
      return closeSymbol(api, ctx, session, accountId, { symbol: parsed.canonical, class: parsed.class });
    },

    async findByBrokerId(ctx, session, accountId, orderId) {
      accountPath(session, accountId);
      return findById(api, ctx, session, accountId, orderId);
    },

    async listRecentOrders(ctx, session, query) {
      accountPath(session, query.accountId);
      return listById(api, ctx, session, query, now(ctx));
    },

    async getHoldings(ctx, session, accountId) {
      const path = accountPath(session, accountId);
      const [balances, positions] = await Promise.all([
        api.call(ctx, session, { path: `${path}/balances/USD` }),
        api.call(ctx, session, { path: `${path}/positions` }),
      ]);
      return holdingsOf(balances.body, positions.body);
    },
  };
  return broker;
}
