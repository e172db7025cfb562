// E*TRADE API v1: OAuth 1.0a sign-in (a request token first, the user's verifier back through
// /callback/etrade), accounts by accountIdKey, every order previewed then placed with its
// PreviewIds. Our signal id is the clientOrderId E*TRADE refuses to take twice; E*TRADE never
// returns it, so an order is found again by its id or by its terms among the day's orders.
import type { BrokerAccount, BrokerContext, BrokerSession, BrokerWith } from '../../core/broker.ts';
import { BrokerError } from '../../core/errors.ts';
import { orderIdToCancel } from '../../core/find-order.ts';
import { createEtradeApi } from './api.ts';
import { ETRADE_SANDBOX_URL, ETRADE_TITLE, etradeDescriptor } from './descriptor.ts';
import { findById, listMatching } from './lookup.ts';
import { etradeClientOrderId, toEtradeOrder } from './mapper.ts';
import { accountPath, cancelById, placeRequest, previewOf } from './orders.ts';
import { cancelOpenOrders, closeSymbol, holdingsOf } from './portfolio.ts';
import { lastPriceOf } from './quote.ts';
import { toAccounts } from './reader.ts';
import {
  accessToken,
  authorizePage,
  consumerOf,
  type EtradeTokens,
  renewDueAt,
  requestToken,
  secretsOf,
} from './tokens.ts';

export interface EtradeBrokerOptions {
  /** Clock when the context brings none. */
  now?: () => number;
  fetch?: typeof fetch;
}

/** Renewed before it turns idle; nothing outlives midnight US Eastern (the expiry warning's date). */
function sessionOf(tokens: EtradeTokens, accounts: BrokerAccount[]): BrokerSession {
  return { secrets: secretsOf(tokens), accounts, expiresAt: tokens.expiresAt, refreshAt: renewDueAt(tokens) };
}

export type EtradeBroker = BrokerWith<
  | 'startAuthorization'
  | 'checkOrder'
  | 'refresh'
  | 'previewOrder'
  | 'cancelOrder'
  | 'closePosition'
  | 'getHoldings'
  | 'findByBrokerId'
  | 'listRecentOrders'
  | 'lastPrice'
>;

export function createEtradeBroker(options: EtradeBrokerOptions = {}): EtradeBroker {
  const now = (ctx: BrokerContext) => (ctx.now ?? options.now ?? Date.now)();
  const api = createEtradeApi({ now, ...(options.fetch ? { fetch: options.fetch } : {}) });

  const broker: EtradeBroker = {
    descriptor: etradeDescriptor,

    async startAuthorization(ctx) {
      const { consumerKey } = consumerOf(ctx);
      const request = await requestToken(ctx, now(ctx), options.fetch);
      const url = new URL(authorizePage(ctx.baseUrl));
      url.search = new URLSearchParams({ key: consumerKey, token: request.token }).toString();
      return {
        requestUrl: url.toString(),
        pending: { requestToken: request.token, requestTokenSecret: request.tokenSecret },
      };
    },

    async connect(ctx, input) {
      const verifier = (input.credentials.oauth_verifier ?? input.credentials.code)?.trim();
      const token = input.pending?.requestToken;
      const tokenSecret = input.pending?.requestTokenSecret;
      if (!verifier || !token || !tokenSecret) {
        throw new BrokerError('AuthenticationError', ETRADE_TITLE, 'no verification code; connect again');
      }
      const tokens = await accessToken(ctx, { token, tokenSecret }, verifier, now(ctx), options.fetch);
      const signedIn = sessionOf(tokens, []);
      const { body } = await api.call(ctx, signedIn, { path: '/v1/accounts/list.json' });
      const accounts = toAccounts(body, ctx.baseUrl === ETRADE_SANDBOX_URL);
      if (accounts.length === 0) throw new BrokerError('AuthenticationError', ETRADE_TITLE, 'no open account');
      return sessionOf(tokens, accounts);
    },

    async refresh(ctx, session) {
      return sessionOf(await api.refresh(ctx, session), session.accounts);
    },

    // placeOrder's own mapping of an order it sends as given.
    checkOrder({ order, clientOrderId }) {
      const id = etradeClientOrderId(clientOrderId);
      if (order.action !== 'close' && order.action !== 'cancel') toEtradeOrder(order, id);
    },

    async placeOrder(ctx, session, { accountId, order, clientOrderId }) {
      const id = etradeClientOrderId(clientOrderId);
      if (order.action === 'close')
        return closeSymbol(api, ctx, session, accountId, order.symbol, id, now(ctx), order.quantity);
      if (order.action === 'cancel') return cancelOpenOrders(api, ctx, session, accountId, order, now(ctx));
      return placeRequest(api, ctx, session, accountId, toEtradeOrder(order, id));
    },

    async previewOrder(ctx, session, { accountId, order, clientOrderId }) {
      if (order.action === 'close' || order.action === 'cancel') {
        accountPath(session, accountId);
        return { id: clientOrderId, status: 'draft', status_description: `Preview of ${order.action}: nothing sent` };
      }
      const preview = await previewOf(
        api,
        ctx,
        session,
        accountId,
        toEtradeOrder(order, etradeClientOrderId(clientOrderId)),
      );
      return { ...preview, id: clientOrderId };
    },

    async cancelOrder(ctx, session, target) {
      accountPath(session, target.accountId);
      const orderId = await orderIdToCancel(broker, ctx, session, target);
      await cancelById(api, ctx, session, target.accountId, orderId);
    },

    closePosition(ctx, session, accountId, symbol) {
      return closeSymbol(
        api,
        ctx,
        session,
        accountId,
        symbol,
        etradeClientOrderId(`close-${symbol}-${now(ctx)}`),
        now(ctx),
      );
    },

    findByBrokerId(ctx, session, accountId, orderId) {
      return findById(api, ctx, session, accountId, orderId);
    },

    async listRecentOrders(ctx, session, query) {
      accountPath(session, query.accountId);
      return listMatching(api, ctx, session, query);
    },

    getHoldings(ctx, session, accountId) {
      return holdingsOf(api, ctx, session, accountId);
    },

    lastPrice(ctx, session, accountId, symbol, cls) {
      return lastPriceOf(api, ctx, session, accountId, symbol, cls);
    },
  };
  return broker;
}
