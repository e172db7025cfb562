// Trading 212 public API v0: API key and secret, equities, one endpoint per order type. Keys
// belong to the live or the practice (demo) environment: connecting tries live, then demo.
// Trading 212 takes no client order id: an order is found again by its id, or by its terms.
import type { OrderResponse } from '@router/orders';
import type { BrokerContext, BrokerSession, BrokerWith, Holdings } from '../../core/broker.ts';
import { connectToEnvironment } from '../../core/environments.ts';
import { BrokerError, checkAccountInConnection } from '../../core/errors.ts';
import { closeFailedAfterCancel } from '../../core/exits-cut.ts';
import { orderIdToCancel } from '../../core/find-order.ts';
import type { HttpClient } from '../../core/http.ts';
import { asRecord, decimalField, listOf, stringField } from '../../core/json-read.ts';
import { clientFor, sessionClient } from './api.ts';
import { TRADING212_ENVIRONMENTS, TRADING212_TITLE, trading212Descriptor } from './descriptor.ts';
import { createInstrumentCache } from './instruments.ts';
import { findById, listMatching } from './lookup.ts';
import {
  closePart,
  marketRequest,
  type Trading212Request,
  tickerOf,
  toOrderResponse,
  toTrading212Request,
} from './mapper.ts';
import { cancelOrders, closeSome, openOrders } from './partial-close.ts';

export interface Trading212BrokerOptions {
  now?: () => number;
  fetch?: typeof fetch;
}

export type Trading212Broker = BrokerWith<
  'checkOrder' | 'cancelOrder' | 'closePosition' | 'getHoldings' | 'findByBrokerId' | 'listRecentOrders'
>;

export function createTrading212Broker(options: Trading212BrokerOptions = {}): Trading212Broker {
  const now = (ctx: BrokerContext) => (ctx.now ?? options.now ?? Date.now)();
  const instruments = createInstrumentCache();

  /** The connection's client; one account per API key. */
  function clientOf(ctx: BrokerContext, session: BrokerSession, accountId: string): HttpClient {
    checkAccountInConnection(TRADING212_TITLE, session, accountId);
    return sessionClient(ctx, session.secrets, options.fetch);
  }
  const tickerFor = (ctx: BrokerContext, session: BrokerSession, client: HttpClient) => (symbol: string) =>
    instruments.ticker(`${session.secrets.environment}:${session.secrets.apiKey}`, client, symbol, now(ctx));

  async function submit(client: HttpClient, request: Trading212Request): Promise<OrderResponse> {
    // Trading 212 says its order endpoints are not idempotent: one POST, never repeated.
    const { body } = await client.request({ method: 'POST', path: request.path, json: request.body });
    // A 2xx without the order's id says nothing sure: the order is found again by its terms.
    if (!stringField(body, 'id'))
      throw new BrokerError('BrokerUnavailable', TRADING212_TITLE, 'no order id in the answer', {
        outcomeUnknown: true,
      });
    return toOrderResponse(body);
  }

  /** Cancels the pending orders of `ticker` (those done or being canceled passed over); their ids. */
  async function cancelOpen(client: HttpClient, ticker: string): Promise<string[]> {
    return cancelOrders(client, ticker, await openOrders(client, ticker));
  }

  /**
   * Sells the position, or `part` of it (never more than is available). A close of all of it
   * cancels the ticker's pending orders first: a protective stop holds the shares it would sell
   * (they are not available for trading), and left working it would sell, once triggered, what is
   * no longer held. A close of part keeps the exits that fit what it leaves (partial-close.ts).
   */
  async function closePosition(
    ctx: BrokerContext,
    session: BrokerSession,
    accountId: string,
    symbol: string,
    part?: number,
  ) {
    const client = clientOf(ctx, session, accountId);
    const ticker = await tickerFor(ctx, session, client)(symbol);
    const { body } = await client.request({ path: '/api/v0/equity/positions', query: { ticker } });
    const position = listOf(body).find((item) => tickerOf(item) === ticker);
    const owned = decimalField(position, 'quantity') ?? 0;
    const available = decimalField(position, 'quantityAvailableForTrading') ?? owned;
    // Shares in pies are the pie's: a sell through the API cannot reach them.
    const outsidePies = owned - (decimalField(position, 'quantityInPies') ?? 0);
    if (owned <= 0 || outsidePies <= 0)
      throw new BrokerError('InvalidOrder', TRADING212_TITLE, `no position in ${ticker} to close`);
    if (part !== undefined && part > 0 && part < outsidePies)
      return closeSome(client, ticker, { owned, available, outsidePies }, part, (request) => submit(client, request));
    const canceled = await cancelOpen(client, ticker);
    return submit(client, marketRequest(ticker, -outsidePies)).catch((error: unknown) => {
      // The ticker's pending orders are gone by now: a refusal says so.
      throw closeFailedAfterCancel(error, ticker, canceled);
    });
  }

  async function cancelPending(ctx: BrokerContext, session: BrokerSession, accountId: string, symbol: string) {
    const client = clientOf(ctx, session, accountId);
    const ticker = await tickerFor(ctx, session, client)(symbol);
    const ids = await cancelOpen(client, ticker);
    const description = ids.length
      ? `Cancelled ${ids.length} pending order(s) of ${ticker}`
      : `No pending orders of ${ticker}`;
    return { id: ids.join(','), status: 'canceled', status_description: description } satisfies OrderResponse;
  }

  const broker: Trading212Broker = {
    descriptor: trading212Descriptor,

    async connect(ctx, input) {
      const apiKey = input.credentials.apiKey?.trim();
      const apiSecret = input.credentials.apiSecret?.trim() || undefined;
      if (!apiKey) throw new BrokerError('AuthenticationError', TRADING212_TITLE, 'the API key is required');
      const found = await connectToEnvironment(ctx, TRADING212_ENVIRONMENTS, 'live', async (baseUrl) => {
        const { body } = await clientFor(ctx, baseUrl, apiKey, apiSecret, options.fetch).request({
          path: '/api/v0/equity/account/summary',
        });
        return body;
      });
      const id = stringField(found.result, 'id');
      if (!id) throw new BrokerError('BrokerUnavailable', TRADING212_TITLE, 'no account id in the answer');
      const currency = stringField(found.result, 'currency');
      const demo = found.kind === 'demo';
      return {
        secrets: { apiKey, ...(apiSecret ? { apiSecret } : {}), environment: found.kind },
        accounts: [
          {
            id,
            name: `Trading 212 ${demo ? 'practice' : 'invest'} ${id}`,
            dataTitle: id,
            dataType: 'cash',
            ...(currency ? { dataCurrency: currency } : {}),
            demo,
          },
        ],
      };
    },

    // placeOrder's own mapping; the ticker it finds for the symbol (a lookup) is only carried.
    checkOrder({ order }) {
      if (order.action === 'close') closePart(order);
      else if (order.action !== 'cancel') toTrading212Request(order, order.symbol);
    },

    async placeOrder(ctx, session, { accountId, order }) {
      if (order.action === 'close') return closePosition(ctx, session, accountId, order.symbol, closePart(order));
      if (order.action === 'cancel') return cancelPending(ctx, session, accountId, order.symbol);
      const client = clientOf(ctx, session, accountId);
      const ticker = await tickerFor(ctx, session, client)(order.symbol);
      return submit(client, toTrading212Request(order, ticker));
    },

    async cancelOrder(ctx, session, target) {
      const client = clientOf(ctx, session, target.accountId);
      const orderId = await orderIdToCancel(broker, ctx, session, target);
      await client.request({
        method: 'DELETE',
        path: `/api/v0/equity/orders/${encodeURIComponent(orderId)}`,
      });
    },

    closePosition: (ctx, session, accountId, symbol) => closePosition(ctx, session, accountId, symbol),

    findByBrokerId: (ctx, session, accountId, orderId) => findById(clientOf(ctx, session, accountId), orderId),

    listRecentOrders(ctx, session, query) {
      const client = clientOf(ctx, session, query.accountId);
      return listMatching(client, query, tickerFor(ctx, session, client));
    },

    async getHoldings(ctx, session, accountId): Promise<Holdings> {
      const client = clientOf(ctx, session, accountId);
      const summary = (await client.request({ path: '/api/v0/equity/account/summary' })).body;
      const positions = (await client.request({ path: '/api/v0/equity/positions' })).body;
      const cash = decimalField(asRecord(summary)?.cash, 'availableToTrade');
      const equity = decimalField(summary, 'totalValue');
      const currency = stringField(summary, 'currency');
      return {
        ...(cash !== undefined ? { cash, buyingPower: cash } : {}),
        ...(equity !== undefined ? { equity } : {}),
        ...(currency ? { currency } : {}),
        positions: listOf(positions).flatMap((item) => {
          const symbol = tickerOf(item);
          const quantity = decimalField(item, 'quantity');
          if (!symbol || !quantity) return [];
          const averagePrice = decimalField(item, 'averagePricePaid');
          const marketValue = decimalField(asRecord(item.walletImpact), 'currentValue');
          return [
            {
              symbol,
              quantity,
              ...(averagePrice !== undefined ? { averagePrice } : {}),
              ...(marketValue !== undefined ? { marketValue } : {}),
            },
          ];
        }),
      };
    },
  };
  return broker;
}
