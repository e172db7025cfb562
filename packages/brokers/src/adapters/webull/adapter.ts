// Webull OpenAPI (US): signed App Key requests (signer.ts), a 2FA access token where the account
// checks one (token.ts), stocks, options (single and strategies), futures and crypto through the
// order_v3 endpoints. Our signal id is the client_order_id, unique per account at Webull, so an
// order is found by it (GET /openapi/trade/order/detail) and a repeat is refused, then answered
// with the order placed first.
import { parseSymbol } from '@router/orders';
import type { BrokerAccount, BrokerContext, BrokerSession, BrokerWith } from '../../core/broker.ts';
import { connectToEnvironment, environmentBaseUrl } from '../../core/environments.ts';
import { BrokerError } from '../../core/errors.ts';
import { listOf, stringField } from '../../core/json-read.ts';
import { checkAccount, createWebullApi, keysOf, signedRequest, type WebullKeys } from './api.ts';
import { WEBULL_ENVIRONMENTS, WEBULL_TITLE, webullDescriptor } from './descriptor.ts';
import { cancelByClientId, cancelSymbol, closeSymbol, openOrders } from './exits.ts';
import { toWebullPlacement, webullClientId } from './mapper.ts';
import { findByClientId, submitPlacement } from './orders.ts';
import { holdingsOf } from './reader.ts';
import { type AccessToken, approvedToken, renewedToken, type TokenPolling, tokenRequired } from './token.ts';

export interface WebullBrokerOptions {
  now?: () => number;
  fetch?: typeof fetch;
  /** How long connect waits for the user's approval in the Webull app (2FA accounts). */
  tokenPolling?: TokenPolling;
  /** Order queries' window, 2 s (query-pacing.ts; tests shorten it). */
  orderQueryWindowMs?: number;
}

/**
 * Renew the 2FA token this long before it runs out: before the 6 days' expiry warning (SPEC §9),
 * so a renewal moves the expiry on first and only a renewal that keeps failing is warned about.
 */
export const TOKEN_REFRESH_MARGIN_MS = 7 * 24 * 60 * 60_000;
const DEFAULT_POLLING: TokenPolling = { intervalMs: 5_000, maxWaitMs: 120_000 };

export type WebullBroker = BrokerWith<
  'checkOrder' | 'previewOrder' | 'refresh' | 'cancelOrder' | 'closePosition' | 'getHoldings' | 'findByClientId'
>;

function accountsOf(body: unknown, demo: boolean): BrokerAccount[] {
  return listOf(body).flatMap((item) => {
    const id = stringField(item, 'account_id');
    if (!id) return [];
    const number = stringField(item, 'account_number') ?? id;
    const label = stringField(item, 'account_label');
    return [
      {
        id,
        name: `Webull ${label ?? ''} ${number}`.replace(/\s+/g, ' '),
        dataTitle: number,
        dataType: (stringField(item, 'account_type') ?? 'cash').toLowerCase(),
        dataCurrency: 'USD',
        demo,
      },
    ];
  });
}

function sessionOf(
  keys: WebullKeys,
  environment: string,
  accounts: BrokerAccount[],
  token?: AccessToken,
): BrokerSession {
  return {
    secrets: {
      appKey: keys.appKey,
      appSecret: keys.appSecret,
      environment,
      ...(token ? { accessToken: token.token, tokenExpires: String(token.expires) } : {}),
    },
    accounts,
    ...(token ? { expiresAt: token.expires, refreshAt: token.expires - TOKEN_REFRESH_MARGIN_MS } : {}),
  };
}

export function createWebullBroker(options: WebullBrokerOptions = {}): WebullBroker {
  const now = (ctx?: BrokerContext) => (ctx?.now ?? options.now ?? Date.now)();
  const client = (ctx: BrokerContext) => ({ now: () => now(ctx), ...(options.fetch ? { fetch: options.fetch } : {}) });
  const api = createWebullApi({
    now: () => now(),
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.orderQueryWindowMs ? { orderQueryWindowMs: options.orderQueryWindowMs } : {}),
  });

  const broker: WebullBroker = {
    descriptor: webullDescriptor,

    async connect(ctx, input) {
      const appKey = input.credentials.appKey?.trim() ?? '';
      const appSecret = input.credentials.appSecret?.trim() ?? '';
      if (!appKey || !appSecret)
        throw new BrokerError('AuthenticationError', WEBULL_TITLE, 'App Key and App Secret are required');
      const found = await connectToEnvironment(ctx, WEBULL_ENVIRONMENTS, 'live', async (baseUrl) => {
        const keys: WebullKeys = { appKey, appSecret };
        const token = (await tokenRequired(ctx, baseUrl, keys, client(ctx)))
          ? await approvedToken(ctx, baseUrl, keys, {
              ...client(ctx),
              polling: options.tokenPolling ?? DEFAULT_POLLING,
            })
          : undefined;
        const signedIn = token ? { ...keys, accessToken: token.token } : keys;
        const { body } = await signedRequest(ctx, baseUrl, signedIn, { path: '/openapi/account/list' }, client(ctx));
        return { keys, token, body };
      });
      const accounts = accountsOf(found.result.body, found.kind === 'demo');
      if (!accounts.length) throw new BrokerError('AuthenticationError', WEBULL_TITLE, 'no account for these keys');
      return sessionOf(found.result.keys, found.kind, accounts, found.result.token);
    },

    async refresh(ctx, session) {
      const keys = keysOf(session);
      if (!keys.accessToken) return session;
      const environment = session.secrets.environment === 'demo' ? 'demo' : 'live';
      const baseUrl = environmentBaseUrl(ctx, WEBULL_ENVIRONMENTS, environment);
      const token = await renewedToken(ctx, baseUrl, keys, client(ctx));
      return sessionOf(keys, environment, session.accounts, token);
    },

    // placeOrder's own mapping of an order it sends as given.
    checkOrder({ accountId, order, clientOrderId }) {
      if (order.action !== 'cancel' && order.action !== 'close') toWebullPlacement(order, accountId, clientOrderId);
    },

    async placeOrder(ctx, session, { accountId, order, clientOrderId }) {
      checkAccount(session, accountId);
      if (order.action === 'cancel') return cancelSymbol(api, ctx, session, accountId, order, clientOrderId);
      if (order.action === 'close') return closeSymbol(api, ctx, session, accountId, order, clientOrderId);
      return submitPlacement(api, ctx, session, toWebullPlacement(order, accountId, clientOrderId), clientOrderId);
    },

    async previewOrder(ctx, session, { accountId, order, clientOrderId }) {
      checkAccount(session, accountId);
      if (order.action === 'close' || order.action === 'cancel')
        return { id: clientOrderId, status: 'draft', status_description: `Preview of ${order.action}: nothing sent` };
      const { body, category } = toWebullPlacement(order, accountId, clientOrderId);
      const answer = await api.call(ctx, session, {
        method: 'POST',
        path: '/openapi/trade/order/preview',
        json: body,
        category,
        mutating: false,
      });
      const cost = stringField(answer.body, 'estimated_cost');
      return {
        id: clientOrderId,
        status: 'draft',
        status_description: `Webull accepted the preview${cost ? ` (estimated cost ${cost} USD)` : ''}; nothing was placed`,
      };
    },

    async cancelOrder(ctx, session, { accountId, brokerOrderId, clientOrderId }) {
      checkAccount(session, accountId);
      let clientId = clientOrderId ? webullClientId(clientOrderId) : undefined;
      if (!clientId && brokerOrderId) {
        const open = (await openOrders(api, ctx, session, accountId)).find(
          (order) => stringField(order, 'order_id') === brokerOrderId,
        );
        clientId = stringField(open, 'client_order_id');
        if (!clientId) throw new BrokerError('OrderNotFound', WEBULL_TITLE, `no open order ${brokerOrderId}`);
      }
      if (!clientId) throw new BrokerError('InvalidOrder', WEBULL_TITLE, 'no order id to cancel');
      await cancelByClientId(api, ctx, session, accountId, clientId);
    },

    closePosition(ctx, session, accountId, symbol) {
      checkAccount(session, accountId);
      const parsed = parseSymbol(symbol);
      const order = { symbol: parsed.canonical, class: parsed.class, action: 'close' } as const;
      // Not a signal's: Webull makes up the client_order_id.
      return closeSymbol(api, ctx, session, accountId, {
        ...order,
        quantity_type: 'fixed',
        type: 'market',
        duration: 'day',
      });
    },

    findByClientId(ctx, session, accountId, clientOrderId) {
      checkAccount(session, accountId);
      return findByClientId(api, ctx, session, accountId, clientOrderId);
    },

    async getHoldings(ctx, session, accountId) {
      checkAccount(session, accountId);
      const query = { account_id: accountId };
      const [balance, positions] = await Promise.all([
        api.call(ctx, session, { path: '/openapi/assets/balance', query }),
        api.call(ctx, session, { path: '/openapi/assets/positions', query }),
      ]);
      return holdingsOf(balance.body, positions.body);
    },
  };
  return broker;
}
