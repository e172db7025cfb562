// The MetaTrader broker: MT4 and MT5 accounts through MetaApi's cloud REST API (WIRE.md). An
// account is added to MetaApi (or linked with the user's own token) when connecting; an order is
// one trade request, checked first against the account's state and symbol list (terminal.ts),
// with our signal id as MetaApi's clientId, so reconciliation finds it in the open orders or the
// history. MetaApi keeps no idempotency: nothing that may have reached the broker is resent.
import type { BrokerWith } from '../../core/broker.ts';
import { isBrokerError } from '../../core/errors.ts';
import { orderIdToCancel } from '../../core/find-order.ts';
import { decimalField } from '../../core/json-read.ts';
import { accountPath, fail, linkOf, siteToken, tradingClient } from './client.ts';
import { CONNECT_LIMITS, type ConnectLimits, connectAccount } from './connect.ts';
import { metatraderDescriptor } from './descriptor.ts';
import { cancelSymbol, closePercent, closeSymbol, holdingsOf } from './exits.ts';
import { findTicket, listByClientId } from './lookup.ts';
import { toTrade } from './mapper.ts';
import { undeployAccount } from './provisioning.ts';
import { createServerSearch } from './servers.ts';
import { createTerminalChecks } from './terminal.ts';
import { placedOrder, sendTrade } from './trade.ts';

export interface MetatraderBrokerOptions {
  /** How long connecting waits for MetaApi (tests shorten it). */
  limits?: Partial<ConnectLimits>;
  /** Clock of the caches when the context brings none. */
  now?: () => number;
}

export type MetatraderBroker = BrokerWith<
  | 'checkOrder'
  | 'cancelOrder'
  | 'closePosition'
  | 'getHoldings'
  | 'findByBrokerId'
  | 'listRecentOrders'
  | 'searchBranches'
  | 'lastPrice'
  | 'disconnect'
>;

export function createMetatraderBroker(options: MetatraderBrokerOptions = {}): MetatraderBroker {
  const servers = createServerSearch(options.now);
  const terminal = createTerminalChecks(options.now);
  const limits = { ...CONNECT_LIMITS, ...options.limits };

  const broker: MetatraderBroker = {
    descriptor: metatraderDescriptor,

    connect: (ctx, input) => connectAccount(ctx, input.credentials, servers, limits),

    // placeOrder's own checks, up to the terminal's symbol and the account's platform.
    checkOrder({ order, clientOrderId }) {
      if (order.action === 'close') closePercent(order);
      else if (order.action !== 'cancel') toTrade(order, clientOrderId);
    },

    async placeOrder(ctx, session, { accountId, order, clientOrderId }) {
      const link = linkOf(ctx, session, accountId);
      const percent = order.action === 'close' ? closePercent(order) : undefined;
      const toServer =
        order.action === 'close' || order.action === 'cancel' ? undefined : toTrade(order, clientOrderId);
      await terminal.ready(ctx, link);
      const symbol = await terminal.symbol(ctx, link, order);
      const http = tradingClient(ctx, link);
      if (order.action === 'cancel') return cancelSymbol(ctx, http, link, symbol);
      if (!toServer) return closeSymbol(ctx, http, link, symbol, percent);
      const trade = toServer(symbol, link.platform);
      try {
        const result = await sendTrade(ctx, http, link, trade);
        return placedOrder(result, order.type !== 'market', trade.clientId ?? clientOrderId);
      } catch (error) {
        // The terminal may have lost the broker: look at the account again before the next order.
        if (isBrokerError(error) && error.kind === 'BrokerUnavailable') terminal.forget(link);
        throw error;
      }
    },

    async cancelOrder(ctx, session, target) {
      const link = linkOf(ctx, session, target.accountId);
      const orderId = await orderIdToCancel(broker, ctx, session, target);
      await sendTrade(ctx, tradingClient(ctx, link), link, { actionType: 'ORDER_CANCEL', orderId });
    },

    async closePosition(ctx, session, accountId, symbol) {
      const link = linkOf(ctx, session, accountId);
      await terminal.ready(ctx, link);
      const name = await terminal.symbol(ctx, link, { symbol });
      return closeSymbol(ctx, tradingClient(ctx, link), link, name);
    },

    async getHoldings(ctx, session, accountId) {
      const link = linkOf(ctx, session, accountId);
      return holdingsOf(tradingClient(ctx, link), link);
    },

    // GET …/symbols/:symbol/current-price (MetatraderSymbolPrice), for the server's name of the
    // symbol as an order would use it: the bid/ask midpoint. A symbol the server lacks is refused.
    async lastPrice(ctx, session, accountId, symbol) {
      const link = linkOf(ctx, session, accountId);
      await terminal.ready(ctx, link);
      const name = await terminal.symbol(ctx, link, { symbol });
      const { body } = await tradingClient(ctx, link).request({
        path: `${accountPath(link.metaApiId)}/symbols/${encodeURIComponent(name)}/current-price`,
      });
      const bid = decimalField(body, 'bid');
      const ask = decimalField(body, 'ask');
      if (bid === undefined || ask === undefined) throw fail('BrokerUnavailable', `no price for ${name}`);
      return (bid + ask) / 2;
    },

    // An account the site added is the site's to stop; one linked with the user's own MetaApi
    // token is theirs, and stays as it is.
    async disconnect(ctx, session) {
      const { metaApiId, token } = session.secrets;
      if (token || !metaApiId) return;
      await undeployAccount(ctx, siteToken(ctx), metaApiId);
    },

    findByBrokerId: async (ctx, session, accountId, orderId) =>
      findTicket(ctx, linkOf(ctx, session, accountId), orderId),

    listRecentOrders: async (ctx, session, query) => listByClientId(ctx, linkOf(ctx, session, query.accountId), query),

    searchBranches: async (ctx, search) => servers.search(ctx, siteToken(ctx), search),
  };
  return broker;
}
