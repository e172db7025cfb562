// The Questrade broker (REST API v1): OAuth 2 with single-use refresh tokens and a per-token API
// host, US and Canadian stocks and options by symbolId, brackets, option strategies, preview by
// /impact. Questrade keeps no client order id: an order is found again by its id or its terms.
import { parseSymbol } from '@router/orders';
import type { BrokerAccount, BrokerContext, BrokerSession, BrokerWith, Holdings } from '../../core/broker.ts';
import { BrokerError } from '../../core/errors.ts';
import { orderIdToCancel } from '../../core/find-order.ts';
import { asRecord, decimalField, listOf, stringField } from '../../core/json-read.ts';
import { accountApi, apiClient } from './api.ts';
import { QUESTRADE_PRACTICE_LOGIN_URL, QUESTRADE_TITLE, questradeDescriptor } from './descriptor.ts';
import { cancelById, cancelSymbol, closeSymbol } from './exits.ts';
import { findById, listMatching } from './lookup.ts';
import { closeQuantity, toSubmission } from './mapper.ts';
import {
  authorizationUrl,
  exchangeCode,
  type QuestradeTokens,
  REFRESH_MARGIN_MS,
  refreshTokens,
  secretsOf,
  tokensOf,
} from './oauth.ts';
import { place, preview, submissionOf } from './orders.ts';
import { checkSymbol } from './symbols.ts';

export interface QuestradeBrokerOptions {
  /** Clock when the context brings none. */
  now?: () => number;
}

export type QuestradeBroker = BrokerWith<
  | 'authorizationUrl'
  | 'refresh'
  | 'previewOrder'
  | 'checkOrder'
  | 'cancelOrder'
  | 'closePosition'
  | 'getHoldings'
  | 'findByBrokerId'
  | 'listRecentOrders'
>;

function sessionOf(tokens: QuestradeTokens, accounts: BrokerAccount[]): BrokerSession {
  return {
    secrets: secretsOf(tokens),
    accounts,
    expiresAt: tokens.refreshExpiresAt,
    refreshAt: tokens.accessExpiresAt - REFRESH_MARGIN_MS,
  };
}

/** {"accounts":[{"type":"Margin","number":"26598145","status":"Active",…}]} → ours, by number. */
function accountsOf(body: unknown, practice: boolean): BrokerAccount[] {
  return listOf(asRecord(body)?.accounts).flatMap((item) => {
    const number = stringField(item, 'number');
    const type = stringField(item, 'type');
    if (!number || stringField(item, 'status') === 'Closed') return [];
    return [
      {
        id: number,
        name: `Questrade ${type ?? 'account'} ${number}`,
        dataTitle: number,
        ...(type ? { dataType: type.toLowerCase() } : {}),
        dataCurrency: 'CAD',
        demo: practice,
      },
    ];
  });
}

export function createQuestradeBroker(options: QuestradeBrokerOptions = {}): QuestradeBroker {
  const now = (ctx: BrokerContext) => (ctx.now ?? options.now ?? Date.now)();

  const broker: QuestradeBroker = {
    descriptor: questradeDescriptor,
    authorizationUrl,

    async connect(ctx, input) {
      const code = input.credentials.code?.trim();
      if (!code) throw new BrokerError('AuthenticationError', QUESTRADE_TITLE, 'no authorization code; connect again');
      const tokens = await exchangeCode(ctx, code, now(ctx));
      const signedIn = sessionOf(tokens, []);
      const { body } = await apiClient(ctx, signedIn).request({ path: '/v1/accounts' });
      const accounts = accountsOf(body, ctx.baseUrl === QUESTRADE_PRACTICE_LOGIN_URL);
      if (accounts.length === 0) throw new BrokerError('AuthenticationError', QUESTRADE_TITLE, 'no open account');
      return sessionOf(tokens, accounts);
    },

    async refresh(ctx, session) {
      return sessionOf(await refreshTokens(ctx, tokensOf(session.secrets), now(ctx)), session.accounts);
    },

    // placeOrder's own checks, up to the symbol id lookups.
    checkOrder({ order }) {
      if (order.action === 'close') closeQuantity(order);
      if (order.action === 'close' || order.action === 'cancel') checkSymbol(order.symbol, order.class);
      else toSubmission(order);
    },

    async placeOrder(ctx, session, { accountId, order }) {
      const api = accountApi(ctx, session, accountId);
      if (order.action === 'cancel') return cancelSymbol(api, ctx, order, now(ctx));
      if (order.action === 'close')
        return closeSymbol(api, ctx, order.symbol, order.class, now(ctx), closeQuantity(order));
      return place(api, await submissionOf(api, ctx, order, now(ctx)));
    },

    async previewOrder(ctx, session, { accountId, order, clientOrderId }) {
      if (order.action === 'close' || order.action === 'cancel')
        return { id: clientOrderId, status: 'draft', status_description: `Preview of ${order.action}: nothing sent` };
      const api = accountApi(ctx, session, accountId);
      return preview(api, await submissionOf(api, ctx, order, now(ctx)), clientOrderId);
    },

    async cancelOrder(ctx, session, target) {
      const api = accountApi(ctx, session, target.accountId);
      await cancelById(api, await orderIdToCancel(broker, ctx, session, target));
    },

    closePosition: (ctx, session, accountId, symbol) =>
      closeSymbol(
        accountApi(ctx, session, accountId),
        ctx,
        symbol,
        parseSymbol(symbol).class === 'option' ? 'option' : 'stock',
        now(ctx),
      ),

    findByBrokerId: (ctx, session, accountId, orderId) => findById(accountApi(ctx, session, accountId), orderId),

    listRecentOrders: (ctx, session, query) =>
      listMatching(accountApi(ctx, session, query.accountId), ctx, query, now(ctx)),

    async getHoldings(ctx, session, accountId): Promise<Holdings> {
      const api = accountApi(ctx, session, accountId);
      const [positions, balances] = await Promise.all([
        api.http.request({ path: `${api.path}/positions` }),
        api.http.request({ path: `${api.path}/balances` }),
      ]);
      const combined = listOf(asRecord(balances.body)?.combinedBalances);
      const balance = combined.find((item) => stringField(item, 'currency') === 'CAD') ?? combined[0];
      const optional = (key: string, value: number | undefined) => (value === undefined ? {} : { [key]: value });
      return {
        ...optional('cash', decimalField(balance, 'cash')),
        ...optional('equity', decimalField(balance, 'totalEquity')),
        ...optional('buyingPower', decimalField(balance, 'buyingPower')),
        currency: stringField(balance, 'currency') ?? 'CAD',
        positions: listOf(asRecord(positions.body)?.positions).map((item) => ({
          symbol: stringField(item, 'symbol') ?? '',
          quantity: decimalField(item, 'openQuantity') ?? 0,
          ...optional('averagePrice', decimalField(item, 'averageEntryPrice')),
          ...optional('marketValue', decimalField(item, 'currentMarketValue')),
        })),
      };
    },
  };
  return broker;
}
