// FOREX.com (GAIN Capital / StoneX) through City Index's CIAPI (WIRE.md): a session from the
// user's login and AppKey, orders on numeric market ids, refusals read from HTTP 200 answers.
// No order carries our id: one is found again by its OrderId, or by its terms and time.
import type { Order } from '@router/orders';
import type { BrokerAccount, BrokerContext, BrokerSession, BrokerWith } from '../../core/broker.ts';
import { BrokerError } from '../../core/errors.ts';
import { orderIdToCancel } from '../../core/find-order.ts';
import { asRecord, listOf, stringField } from '../../core/json-read.ts';
import { cancelById, cancelWorking, closeRequest, holdingsOf, submitOrder } from './account-orders.ts';
import { createForexApi, type ForexTokens, logOn, SESSION_RENEW_MS } from './api.ts';
import { FOREX_TITLE, forexDescriptor } from './descriptor.ts';
import { findById, type Lookup, listMatching } from './lookup.ts';
import { toForexRequest } from './mapper.ts';
import { accountOf, createMarketCache, marketName, quoteOf } from './markets.ts';
import { readSimulation } from './status.ts';

export interface ForexBrokerOptions {
  now?: () => number;
  fetch?: typeof fetch;
}

export type ForexBroker = BrokerWith<
  | 'refresh'
  | 'checkOrder'
  | 'previewOrder'
  | 'cancelOrder'
  | 'closePosition'
  | 'getHoldings'
  | 'findByBrokerId'
  | 'listRecentOrders'
  | 'lastPrice'
>;

/** The server renews the session this long before the adapter would. */
const REFRESH_EARLY_MS = 5 * 60_000;

function sessionOf(tokens: ForexTokens, accounts: BrokerAccount[], clientAccountId: string): BrokerSession {
  const sessionAt = tokens.accessExpiresAt - SESSION_RENEW_MS;
  return {
    secrets: {
      userName: tokens.userName,
      password: tokens.password,
      appKey: tokens.appKey,
      session: tokens.accessToken,
      sessionAt: String(sessionAt),
      clientAccountId,
    },
    accounts,
    refreshAt: tokens.accessExpiresAt - REFRESH_EARLY_MS,
  };
}

/** AccountInformationResponseDTO → the open trading accounts. */
function accountsOf(body: unknown, userName: string): BrokerAccount[] {
  const currency = stringField(body, 'ClientAccountCurrency') ?? 'USD';
  return listOf(asRecord(body)?.TradingAccounts)
    .filter((item) => stringField(item, 'TradingAccountStatus') !== 'Closed')
    .flatMap((item) => {
      const id = stringField(item, 'TradingAccountId');
      const code = stringField(item, 'TradingAccountCode') ?? id;
      const type = stringField(item, 'TradingAccountType') ?? 'CFD';
      if (!id) return [];
      // FOREX.com's demo logins are issued as DM… user names.
      const demo = /^DM/i.test(userName);
      return [
        {
          id,
          name: `FOREX.com ${code} (${type})`,
          dataTitle: code,
          dataType: type.toLowerCase(),
          dataCurrency: currency,
          demo,
        },
      ];
    });
}

export function createForexBroker(options: ForexBrokerOptions = {}): ForexBroker {
  const now = (ctx: BrokerContext) => (ctx.now ?? options.now ?? Date.now)();
  const api = createForexApi({ now, ...(options.fetch ? { fetch: options.fetch } : {}) });
  const markets = createMarketCache(api);
  const lookupOf = (ctx: BrokerContext, session: BrokerSession, accountId: string): Lookup => ({
    api,
    ctx,
    session,
    account: accountOf(session, accountId),
  });

  /** The request for a buy, sell or close on the current quote. */
  async function orderRequest(lookup: Lookup, order: Order) {
    const { ctx, session, account } = lookup;
    marketName(order.symbol);
    const toMarket = order.action === 'close' ? undefined : toForexRequest(order);
    const market = await markets.market(ctx, session, account, order.symbol, now(ctx));
    const quote = await quoteOf(api, ctx, session, market.marketId);
    return toMarket ? toMarket(market, account, quote) : closeRequest(lookup, market, quote, order.quantity);
  }

  const broker: ForexBroker = {
    descriptor: forexDescriptor,

    async connect(ctx, input) {
      const userName = input.credentials.userName?.trim() ?? '';
      const password = input.credentials.password ?? '';
      const appKey = input.credentials.appKey?.trim() ?? '';
      if (!userName || !password || !appKey)
        throw new BrokerError('AuthenticationError', FOREX_TITLE, 'user name, password and AppKey are required');
      const tokens = await logOn(ctx, { userName, password, appKey }, now(ctx), options.fetch);
      const signedIn = sessionOf(tokens, [], '');
      const { body } = await api.call(ctx, signedIn, { path: '/useraccount/ClientAndTradingAccount' });
      const clientAccountId = stringField(body, 'ClientAccountId');
      const accounts = accountsOf(body, userName);
      if (!clientAccountId || !accounts.length)
        throw new BrokerError('AuthenticationError', FOREX_TITLE, 'no open trading account for this login');
      return sessionOf(tokens, accounts, clientAccountId);
    },

    async refresh(ctx, session) {
      return sessionOf(await api.refresh(ctx, session), session.accounts, session.secrets.clientAccountId ?? '');
    },

    // placeOrder's own checks, up to the market lookup.
    checkOrder({ order }) {
      marketName(order.symbol);
      if (order.action !== 'close' && order.action !== 'cancel') toForexRequest(order);
    },

    async placeOrder(ctx, session, { accountId, order }) {
      const lookup = lookupOf(ctx, session, accountId);
      if (order.action === 'cancel') {
        const market = await markets.market(ctx, session, lookup.account, order.symbol, now(ctx));
        return cancelWorking(lookup, market);
      }
      return submitOrder(lookup, await orderRequest(lookup, order));
    },

    async previewOrder(ctx, session, { accountId, order, clientOrderId }) {
      const lookup = lookupOf(ctx, session, accountId);
      if (order.action === 'cancel')
        return { id: clientOrderId, status: 'draft', status_description: 'Preview of cancel: nothing sent' };
      const request = await orderRequest(lookup, order);
      if (request.path === '/order/newstoplimitorder') {
        // FOREX.com simulates trades only: an entry order is checked and built, not sent.
        return {
          id: clientOrderId,
          status: 'draft',
          status_description: `Preview, nothing sent: ${JSON.stringify(request.body)}`,
        };
      }
      const { body } = await api.call(ctx, session, {
        method: 'POST',
        path: '/order/simulate/newtradeorder',
        json: request.body,
        mutating: false,
      });
      return readSimulation(body, clientOrderId);
    },

    async cancelOrder(ctx, session, target) {
      await cancelById(lookupOf(ctx, session, target.accountId), await orderIdToCancel(broker, ctx, session, target));
    },

    async closePosition(ctx, session, accountId, symbol) {
      const lookup = lookupOf(ctx, session, accountId);
      const order = {
        symbol,
        class: 'forex',
        action: 'close',
        quantity_type: 'fixed',
        type: 'market',
        duration: 'day',
      } as const;
      return submitOrder(lookup, await orderRequest(lookup, order));
    },

    findByBrokerId: (ctx, session, accountId, orderId) => findById(lookupOf(ctx, session, accountId), orderId),

    async listRecentOrders(ctx, session, query) {
      const lookup = lookupOf(ctx, session, query.accountId);
      if (!query.order) return [];
      const market = await markets.market(ctx, session, lookup.account, query.order.symbol, now(ctx));
      return listMatching(lookup, query.order, market, { from: query.from, to: query.to });
    },

    getHoldings: (ctx, session, accountId) => holdingsOf(lookupOf(ctx, session, accountId)),

    // The mid of the last bid and offer ticks, on the market an order for the symbol would use:
    // a symbol that is no pair, or a pair the account cannot trade, is refused as for an order.
    async lastPrice(ctx, session, accountId, symbol) {
      const { account } = lookupOf(ctx, session, accountId);
      const market = await markets.market(ctx, session, account, symbol, now(ctx));
      const { bid, offer } = await quoteOf(api, ctx, session, market.marketId);
      return (bid + offer) / 2;
    },
  };
  return broker;
}
