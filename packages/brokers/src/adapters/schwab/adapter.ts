// Schwab Trader API: OAuth 2 sign-in, accounts by hash, orders as Schwab's order JSON. The order
// id comes back in the Location header of an empty 201. Schwab takes no client order id, so
// getOrder needs an OrderHint (core/order-hint.ts) and answers null without one.
import type { OrderResponse } from '@router/orders';
import type { Broker, BrokerAccount, BrokerContext, BrokerSession } from '../../core/broker.ts';
import { BrokerError } from '../../core/errors.ts';
import type { OrderHint } from '../../core/order-hint.ts';
import { accountPath, cancelOpenOrders, closeSymbol, submitOrder } from './account-orders.ts';
import { createSchwabApi } from './api.ts';
import { SCHWAB_TITLE, schwabDescriptor } from './descriptor.ts';
import { findOrder } from './lookup.ts';
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

export function createSchwabBroker(options: SchwabBrokerOptions = {}): Broker & {
  getOrder(
    ctx: BrokerContext,
    session: BrokerSession,
    accountId: string,
    clientOrderId: string,
    hint?: OrderHint,
  ): Promise<OrderResponse | null>;
} {
  const now = (ctx: BrokerContext) => (ctx.now ?? options.now ?? Date.now)();
  const api = createSchwabApi({ now, ...(options.fetch ? { fetch: options.fetch } : {}) });

  const closePosition = (ctx: BrokerContext, session: BrokerSession, accountId: string, symbol: string) =>
    closeSymbol(api, ctx, session, accountId, symbol);

  return {
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

    placeOrder(ctx, session, { accountId, order }) {
      if (order.action === 'close') return closePosition(ctx, session, accountId, order.symbol);
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

    async cancelOrder(ctx, session, accountId, orderId) {
      const path = `${accountPath(session, accountId)}/orders/${encodeURIComponent(orderId)}`;
      await api.call(ctx, session, { method: 'DELETE', path });
    },

    closePosition,

    getOrder(ctx, session, accountId, _clientOrderId, hint?: OrderHint) {
      accountPath(session, accountId);
      return findOrder(api, ctx, session, accountId, hint);
    },

    async getHoldings(ctx, session, accountId) {
      const { body } = await api.call(ctx, session, {
        path: accountPath(session, accountId),
        query: { fields: 'positions' },
      });
      return holdingsOf(body);
    },
  };
}
