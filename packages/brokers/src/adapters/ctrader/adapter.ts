// cTrader Open API (Spotware): OAuth 2 for the user's cTrader ID, then a long-lived socket per
// environment (live, demo) carrying Spotware's protobuf messages, shared by every account on it.
// Symbols are per-broker numeric ids looked up by name; orders are confirmed by execution
// events; an order is found again by the clientOrderId it carries (lookup.ts).
import type { BrokerAccount, BrokerContext, BrokerSession, BrokerWith } from '../../core/broker.ts';
import { BrokerError } from '../../core/errors.ts';
import { decimalField, listOf, stringField } from '../../core/json-read.ts';
import { accountClient } from './client.ts';
import { CTRADER_TITLE, ctraderDescriptor } from './descriptor.ts';
import { answerError } from './errors.ts';
import { holdingsOf } from './holdings.ts';
import { findById, listMatching, pendingOrderId } from './lookup.ts';
import { clientOrderIdFor, closeVolumeOf, toNewOrder } from './mapper.ts';
import { authorizationUrl, exchangeCode, refreshTokens } from './oauth.ts';
import { cancelById, cancelSymbol, closeSymbol, submitOrder } from './orders.ts';
import { createPool, type Pool } from './pool.ts';
import { type Endpoints, endpointOf, sessionOf, stateOf } from './session.ts';
import { createSymbolCache } from './symbols.ts';

export interface CtraderBrokerOptions {
  now?: () => number;
  /** The sockets of each environment (tests: a fake's /live and /demo), else cTrader's or CTRADER_BASE_URL's. */
  endpoints?: Endpoints;
}

export type CtraderBroker = BrokerWith<
  | 'authorizationUrl'
  | 'refresh'
  | 'checkOrder'
  | 'cancelOrder'
  | 'closePosition'
  | 'getHoldings'
  | 'findByBrokerId'
  | 'listRecentOrders'
> & {
  /** Closes the sockets (tests, shutdown); the next call opens them again. */
  close(): void;
};

const SCOPE_TRADE = 1;

/** The trader accounts an access token opens (ProtoOAGetAccountListByAccessTokenReq). */
async function accountsOf(pool: Pool, ctx: BrokerContext, url: string, accessToken: string) {
  const link = await pool.link(ctx, url);
  const answer = await link.request(
    'ProtoOAGetAccountListByAccessTokenReq',
    { accessToken },
    { mutating: false, ...(ctx.signal ? { signal: ctx.signal } : {}) },
  );
  if (answer.name !== 'ProtoOAGetAccountListByAccessTokenRes') throw answerError(answer);
  if (decimalField(answer.payload, 'permissionScope') !== SCOPE_TRADE) {
    throw new BrokerError(
      'AuthenticationError',
      CTRADER_TITLE,
      'trading access was not allowed (view only); connect again',
    );
  }
  return listOf(answer.payload.ctidTraderAccount).flatMap((item) => {
    const id = stringField(item, 'ctidTraderAccountId');
    if (!id) return [];
    const broker = stringField(item, 'brokerTitleShort');
    const login = stringField(item, 'traderLogin') ?? id;
    const account: BrokerAccount = {
      id,
      name: broker ? `${broker} ${login}` : login,
      ...(broker ? { dataTitle: broker } : {}),
      demo: item.isLive !== true,
    };
    return [account];
  });
}

export function createCtraderBroker(options: CtraderBrokerOptions = {}): CtraderBroker {
  const now = (ctx: BrokerContext) => (ctx.now ?? options.now ?? Date.now)();
  const pool = createPool();
  const symbols = createSymbolCache();
  const clientOf = (ctx: BrokerContext, session: BrokerSession, accountId: string) =>
    accountClient(pool, ctx, session, accountId, options.endpoints);

  const closePosition = async (ctx: BrokerContext, session: BrokerSession, accountId: string, name: string) => {
    const client = clientOf(ctx, session, accountId);
    const symbol = await symbols.resolve(client, name, now(ctx));
    return closeSymbol(client, symbol.symbolId, symbol.name, undefined, ctx.signal);
  };

  const broker: CtraderBroker = {
    descriptor: ctraderDescriptor,
    authorizationUrl,

    async connect(ctx, input) {
      const tokens = await exchangeCode(ctx, input.credentials.code?.trim() ?? '', now(ctx));
      const url = endpointOf(ctx, false, options.endpoints);
      const accounts = await accountsOf(pool, ctx, url, tokens.accessToken);
      if (accounts.length === 0)
        throw new BrokerError('AuthenticationError', CTRADER_TITLE, 'no trading account was authorized');
      return sessionOf({ ...tokens, accounts: accounts.map(({ id, demo }) => ({ id, live: !demo })) }, accounts);
    },

    async refresh(ctx, session) {
      const state = stateOf(session.secrets);
      const fresh = await refreshTokens(ctx, state, now(ctx));
      return sessionOf({ ...fresh, accounts: state.accounts }, session.accounts);
    },

    // placeOrder's own checks, up to the symbol lookup.
    checkOrder({ order, clientOrderId }) {
      if (order.action === 'close') closeVolumeOf(order.quantity);
      else if (order.action !== 'cancel') toNewOrder(order, clientOrderIdFor(clientOrderId));
    },

    async placeOrder(ctx, session, { accountId, order, clientOrderId }) {
      const client = clientOf(ctx, session, accountId);
      const ours = clientOrderIdFor(clientOrderId);
      const closing = order.action === 'close' ? closeVolumeOf(order.quantity) : undefined;
      const toSymbol = order.action === 'close' || order.action === 'cancel' ? undefined : toNewOrder(order, ours);
      const symbol = await symbols.resolve(client, order.symbol, now(ctx));
      if (order.action === 'close')
        return closeSymbol(client, symbol.symbolId, symbol.name, closing?.(symbol), ctx.signal);
      if (!toSymbol) return cancelSymbol(client, symbol.symbolId, symbol.name);
      return submitOrder(client, toSymbol(symbol), ours, ctx.signal);
    },

    async cancelOrder(ctx, session, target) {
      const client = clientOf(ctx, session, target.accountId);
      // Only a pending order can be canceled, and reconcile lists each with our id: no send time
      // is needed, as the core lookup (orderIdToCancel) would need for the order history.
      const byOurs = target.clientOrderId && !target.brokerOrderId;
      const orderId = byOurs ? await pendingOrderId(client, target.clientOrderId ?? '') : target.brokerOrderId;
      if (!orderId) {
        const which = target.clientOrderId
          ? `no pending order with client order id ${target.clientOrderId}`
          : 'no order id to cancel';
        throw new BrokerError(target.clientOrderId ? 'OrderNotFound' : 'InvalidOrder', CTRADER_TITLE, which);
      }
      await cancelById(client, orderId);
    },

    closePosition,

    findByBrokerId: (ctx, session, accountId, orderId) => findById(clientOf(ctx, session, accountId), orderId),

    listRecentOrders: (ctx, session, query) => listMatching(clientOf(ctx, session, query.accountId), query, now(ctx)),

    getHoldings: (ctx, session, accountId) => holdingsOf(clientOf(ctx, session, accountId), symbols, now(ctx)),

    close: () => pool.close(),
  };
  return broker;
}
