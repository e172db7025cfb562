// Schwab Trader API: OAuth 2 sign-in, accounts by hash, orders as Schwab's order JSON. The order
// id comes back in the Location header of an empty 201. Schwab takes no client order id: an order
// is found again by its id, or by its terms among the orders entered around the send time.
import type { BrokerAccount, BrokerContext, BrokerSession, BrokerWith } from '../../core/broker.ts';
import { BrokerError } from '../../core/errors.ts';
import { orderIdToCancel } from '../../core/find-order.ts';
import { accountPath, cancelOpenOrders, closeSymbol, submitOrder } from './account-orders.ts';
import { createSchwabApi } from './api.ts';
import { SCHWAB_TITLE, schwabDescriptor } from './descriptor.ts';
import { findById, listMatching } from './lookup.ts';
import { toSchwabOrder } from './mapper.ts';
import { authorizationUrl, exchangeCode, REFRESH_MARGIN_MS, type SchwabTokens, secretsOf } from './oauth.ts';
import { previewOf } from './preview.ts';
import { accountNumbers, holdingsOf, toAccounts } from './reader.ts';

export interface SchwabBrokerOptions {
  /** Clock when the context brings none. */
  now?: () => number;
  fetch?: typeof fetch;
}

function sessionOf(tokens: SchwabTokens, accounts: BrokerAccount[]): BrokerSession {
  return {
    secrets: secretsOf(tokens),
    accounts,
    expiresAt: tokens.refreshExpiresAt,
    refreshAt: tokens.accessExpiresAt - REFRESH_MARGIN_MS,
  };
}

export type SchwabBroker = BrokerWith<
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

export function createSchwabBroker(options: SchwabBrokerOptions = {}): SchwabBroker {
  const now = (ctx: BrokerContext) => (ctx.now ?? options.now ?? Date.now)();
  const api = createSchwabApi({ now, ...(options.fetch ? { fetch: options.fetch } : {}) });

  const closePosition = (
    ctx: BrokerContext,
    session: BrokerSession,
    accountId: string,
    symbol: string,
    quantity?: number,
  ) => closeSymbol(api, ctx, session, accountId, symbol, now(ctx), quantity);

  const broker: SchwabBroker = {
    descriptor: schwabDescriptor,
    authorizationUrl,

    async connect(ctx, input) {
      const code = input.credentials.code?.trim();
      if (!code) throw new BrokerError('AuthenticationError', SCHWAB_TITLE, 'no authorization code; sign in again');
      const tokens = await exchangeCode(ctx, code, now(ctx), options.fetch);
      const signedIn = sessionOf(tokens, []);
      const numbers = accountNumbers(
        (await api.call(ctx, signedIn, { path: '/trader/v1/accounts/accountNumbers' })).body,
      );
      if (numbers.length === 0) throw new BrokerError('AuthenticationError', SCHWAB_TITLE, 'no account was authorized');
      const details = await api.call(ctx, signedIn, { path: '/trader/v1/accounts' });
      return sessionOf(tokens, toAccounts(numbers, details.body));
    },

    async refresh(ctx, session) {
      return sessionOf(await api.refresh(ctx, session), session.accounts);
    },

    // placeOrder's own mapping of an order it sends as given.
    checkOrder({ order }) {
      if (order.action !== 'close' && order.action !== 'cancel') toSchwabOrder(order);
    },

    placeOrder(ctx, session, { accountId, order }) {
      if (order.action === 'close') return closePosition(ctx, session, accountId, order.symbol, order.quantity);
      if (order.action === 'cancel') return cancelOpenOrders(api, ctx, session, accountId, order.symbol, now(ctx));
      return submitOrder(api, ctx, session, accountId, toSchwabOrder(order));
    },

    async previewOrder(ctx, session, { accountId, order, clientOrderId }) {
      if (order.action === 'close' || order.action === 'cancel') {
        return { id: clientOrderId, status: 'draft', status_description: `Preview of ${order.action}: nothing sent` };
      }
      const path = `${accountPath(session, accountId)}/previewOrder`;
      const { body } = await api.call(ctx, session, {
        method: 'POST',
        path,
        json: toSchwabOrder(order),
        mutating: false,
      });
      return previewOf(body, clientOrderId);
    },

    async cancelOrder(ctx, session, target) {
      const orders = `${accountPath(session, target.accountId)}/orders`;
      const orderId = await orderIdToCancel(broker, ctx, session, target);
      await api.call(ctx, session, { method: 'DELETE', path: `${orders}/${encodeURIComponent(orderId)}` });
    },

    closePosition,

    findByBrokerId(ctx, session, accountId, orderId) {
      accountPath(session, accountId);
      return findById(api, ctx, session, accountId, orderId);
    },

    listRecentOrders(ctx, session, query) {
      accountPath(session, query.accountId);
      return listMatching(api, ctx, session, query);
    },

    async getHoldings(ctx, session, accountId) {
      const { body } = await api.call(ctx, session, {
        path: accountPath(session, accountId),
        query: { fields: 'positions' },
      });
      return holdingsOf(body);
    },
  };
  return broker;
}
