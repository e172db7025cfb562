// The Tradovate broker (REST API v1): username, password and API key → an access token, renewed
// before it runs out; futures by contract name, OSO brackets and OCO pairs; our signal id as
// clOrdId. Tradovate does not refuse a repeated clOrdId, so the server's own idempotency (one
// signal, one call) is what keeps an order single; after a lost answer the order is found by its
// clOrdId in the command list (lookup.ts). Tradovate keeps two sessions per user and closes the
// oldest when a third signs in: a token closed that way answers 401, and the connection asks to
// be reconnected rather than opening sessions of its own that would close the user's others.
import type { BrokerAccount, BrokerContext, BrokerSession, BrokerWith, Holdings } from '../../core/broker.ts';
import { type BrokerEnvironments, type EnvironmentKind, isBaseUrlOverridden } from '../../core/environments.ts';
import { BrokerError } from '../../core/errors.ts';
import { orderIdToCancel } from '../../core/find-order.ts';
import { decimalField, listOf, stringField } from '../../core/json-read.ts';
import { readCredentials, renewToken, requestToken } from './auth.ts';
import { contractName, parseContract } from './contracts.ts';
import { TRADOVATE_ENVIRONMENTS, TRADOVATE_TITLE, tradovateDescriptor } from './descriptor.ts';
import { cancelById, cancelSymbol, closePart, closeSymbol } from './exits.ts';
import { findById, listByClOrdId } from './lookup.ts';
import { fromPlacement, toPlacement } from './mapper.ts';
import { type AccountRef, accountClient, baseUrlOf, listAccounts, sessionOf, stateOf } from './session.ts';

export interface TradovateBrokerOptions {
  /** Clock when the context brings none. */
  now?: () => number;
  /** Live and demo origins; tests point them at two fakes. */
  environments?: BrokerEnvironments;
}

export type TradovateBroker = BrokerWith<
  'refresh' | 'checkOrder' | 'cancelOrder' | 'closePosition' | 'getHoldings' | 'findByBrokerId' | 'listRecentOrders'
>;

/** Where the accounts are listed: demo always, live when the user has it; one origin when overridden. */
function environmentsFor(ctx: BrokerContext, environments: BrokerEnvironments, hasLive: boolean): EnvironmentKind[] {
  if (isBaseUrlOverridden(ctx, environments)) return [hasLive ? 'live' : 'demo'];
  if (ctx.baseUrl === environments.demo) return ['demo'];
  return hasLive ? ['live', 'demo'] : ['demo'];
}

export function createTradovateBroker(options: TradovateBrokerOptions = {}): TradovateBroker {
  const now = (ctx: BrokerContext) => (ctx.now ?? options.now ?? Date.now)();
  const environments = options.environments ?? TRADOVATE_ENVIRONMENTS;
  const client = (ctx: BrokerContext, session: BrokerSession, accountId: string) =>
    accountClient(ctx, session, accountId, environments);

  const broker: TradovateBroker = {
    descriptor: tradovateDescriptor,

    async connect(ctx, input) {
      const credentials = readCredentials(input.credentials);
      // Signing in on the demo origin only when the base URL pins it there.
      const authEnv: EnvironmentKind = ctx.baseUrl === environments.demo ? 'demo' : 'live';
      const token = await requestToken(ctx, baseUrlOf(ctx, authEnv, environments), credentials, now(ctx));
      const refs: AccountRef[] = [];
      const accounts: BrokerAccount[] = [];
      for (const env of environmentsFor(ctx, environments, token.hasLive)) {
        for (const { ref, account } of await listAccounts(ctx, env, token.accessToken, environments)) {
          if (refs.some((known) => known.id === ref.id)) continue;
          refs.push(ref);
          accounts.push(account);
        }
      }
      if (accounts.length === 0) throw new BrokerError('AuthenticationError', TRADOVATE_TITLE, 'no active account');
      const state = {
        credentials,
        accessToken: token.accessToken,
        tokenExpiresAt: token.expiresAt,
        authEnv,
        accounts: refs,
      };
      return sessionOf(state, accounts, token);
    },

    async refresh(ctx, session) {
      const state = stateOf(session);
      const token = await renewToken(
        ctx,
        baseUrlOf(ctx, state.authEnv, environments),
        state.accessToken,
        state.credentials,
        now(ctx),
      );
      return sessionOf(state, session.accounts, token);
    },

    // placeOrder's own checks, up to the contract lookup.
    checkOrder({ order, clientOrderId }) {
      const symbol = order.legs?.[0]?.symbol ?? order.symbol;
      parseContract(symbol, (options.now ?? Date.now)());
      if (order.action === 'close') closePart(order);
      else if (order.action !== 'cancel') toPlacement(order, clientOrderId);
    },

    async placeOrder(ctx, session, { accountId, order, clientOrderId }) {
      const http = client(ctx, session, accountId);
      if (order.action === 'close') return closeSymbol(http, order.symbol, now(ctx), order, clientOrderId);
      if (order.action === 'cancel') return cancelSymbol(http, order.symbol, now(ctx));
      const symbol = order.legs?.[0]?.symbol ?? order.symbol;
      parseContract(symbol, now(ctx));
      const placement = toPlacement(
        order,
        clientOrderId,
      )({
        accountSpec: http.account.spec,
        accountId: http.accountId,
        symbol: await contractName(http, symbol, now(ctx)),
      });
      const answer = await http.call({ path: placement.path, json: placement.body });
      return fromPlacement(answer.body, placement.path);
    },

    async cancelOrder(ctx, session, target) {
      const http = client(ctx, session, target.accountId);
      await cancelById(http, await orderIdToCancel(broker, ctx, session, target));
    },

    closePosition: (ctx, session, accountId, symbol) => closeSymbol(client(ctx, session, accountId), symbol, now(ctx)),

    findByBrokerId: (ctx, session, accountId, orderId) => findById(client(ctx, session, accountId), orderId),

    listRecentOrders: (ctx, session, query) => listByClOrdId(client(ctx, session, query.accountId), query, now(ctx)),

    async getHoldings(ctx, session, accountId): Promise<Holdings> {
      const http = client(ctx, session, accountId);
      const { body } = await http.call({ path: '/position/list' });
      const open = listOf(body).filter(
        (item) => decimalField(item, 'accountId') === http.accountId && (decimalField(item, 'netPos') ?? 0) !== 0,
      );
      const ids = open.map((item) => stringField(item, 'contractId')).filter(Boolean);
      const names = new Map<string, string>();
      if (ids.length) {
        const contracts = await http.call({ path: '/contract/items', query: { ids: ids.join(',') } });
        for (const item of listOf(contracts.body)) {
          const id = stringField(item, 'id');
          const name = stringField(item, 'name');
          if (id && name) names.set(id, name);
        }
      }
      return {
        currency: 'USD',
        positions: open.map((item) => {
          const contractId = stringField(item, 'contractId') ?? '';
          const averagePrice = decimalField(item, 'netPrice');
          return {
            symbol: names.get(contractId) ?? contractId,
            quantity: decimalField(item, 'netPos') ?? 0,
            ...(averagePrice !== undefined ? { averagePrice } : {}),
          };
        }),
      };
    },
  };
  return broker;
}
