// The CIAPI routes of the FOREX.com protocol fake (SMD names in the comments): account, markets,
// prices, orders (trade, stop/limit, cancel, simulate) and what lists them.
import type { FastifyInstance } from 'fastify';
import {
  accountInformation,
  type FakeLogin,
  marketById,
  marketInformation,
  marketsNamed,
  wcfDate,
} from './fake-market.ts';
import type { FakeTrading } from './fake-trading.ts';

type Json = Record<string, unknown>;
type Query = Record<string, string | undefined>;

export function registerFakeRoutes(
  app: FastifyInstance,
  { login, trading }: { login: FakeLogin; trading: FakeTrading },
) {
  const { dtos } = trading;
  const ownAccount = (query: Query) => Number(query.TradingAccountId) === login.TradingAccountId;
  const newest = <T>(items: T[], query: Query) => items.slice(0, Number(query.MaxResults ?? 100));

  // GetClientAndTradingAccount
  app.get('/useraccount/ClientAndTradingAccount', async () => accountInformation(login));

  // ListCfdMarkets, ListSpreadMarkets: names starting with MarketName, for the client account.
  for (const path of ['/cfd/markets', '/spread/markets']) {
    app.get(path, async (request) => {
      const query = request.query as Query;
      if (Number(query.ClientAccountId) !== login.ClientAccountId) return { Markets: [] };
      return { Markets: marketsNamed(query.MarketName ?? '').slice(0, Number(query.MaxResults ?? 20)) };
    });
  }

  // GetMarketInformation
  app.get('/market/:marketId/information', async (request, reply) => {
    const market = marketById(Number((request.params as { marketId: string }).marketId));
    return market
      ? marketInformation(market)
      : reply.code(404).send({ HttpStatus: 404, ErrorMessage: 'Market not found', ErrorCode: 5001 });
  });

  // GetPriceTicks: the last ticks, of the mid price unless priceType asks for the bid or ask.
  app.get('/market/:marketId/tickhistory', async (request) => {
    const market = marketById(Number((request.params as { marketId: string }).marketId));
    const { priceType = 'MID' } = request.query as Query;
    if (!market) return { PriceTicks: [] };
    const price =
      priceType === 'BID' ? market.bid : priceType === 'ASK' ? market.offer : (market.bid + market.offer) / 2;
    return { PriceTicks: [{ TickDate: wcfDate(Date.now()), Price: price }] };
  });

  // Trade, Order, SimulateTrade, CancelOrder: HTTP 200 whatever the outcome.
  app.post('/order/newtradeorder', async (request) => trading.placeTrade(request.body as Json));
  app.post('/order/newstoplimitorder', async (request) => trading.placeStopLimit(request.body as Json));
  app.post('/order/simulate/newtradeorder', async (request) => trading.placeTrade(request.body as Json, true));
  app.post('/order/cancel', async (request) => trading.cancel(request.body as Json));

  // ListOpenPositions, ListActiveStopLimitOrders, ListActiveOrders
  const openPositions = () =>
    trading.positions.map((position) =>
      dtos.openPosition(
        position,
        trading.working.filter((order) => order.ParentOrderId === position.OrderId),
      ),
    );
  app.get('/order/openpositions', async (request) => ({
    OpenPositions: ownAccount(request.query as Query) ? openPositions() : [],
  }));
  app.get('/order/activestoplimitorders', async (request) => ({
    ActiveStopLimitOrders: ownAccount(request.query as Query) ? trading.working.map(dtos.activeStopLimitOrder) : [],
  }));
  app.post('/order/activeorders', async (request) => {
    const body = (request.body ?? {}) as Json;
    if (body.TradingAccountId !== undefined && body.TradingAccountId !== login.TradingAccountId)
      return { ActiveOrders: [] };
    return {
      ActiveOrders: [
        ...trading.positions.map((position) => ({
          TradeOrder: dtos.tradeOrder(position),
          StopLimitOrder: null,
          TypeId: 1,
        })),
        ...trading.working.map((order) => ({
          TradeOrder: null,
          StopLimitOrder: dtos.stopLimitOrder(order),
          TypeId: order.TypeId,
        })),
      ],
    };
  });

  // ListTradeHistory (at the SMD's order/order/tradehistory and clients' order/tradehistory), ListStopLimitOrderHistory
  const tradeHistory = async (request: { query: unknown }) => {
    const query = request.query as Query;
    return { TradeHistory: ownAccount(query) ? newest(trading.trades, query) : [], SupplementalOpenOrders: [] };
  };
  app.get('/order/tradehistory', tradeHistory);
  app.get('/order/order/tradehistory', tradeHistory);
  app.get('/order/stoplimitorderhistory', async (request) => {
    const query = request.query as Query;
    return { StopLimitOrderHistory: ownAccount(query) ? newest(trading.stopLimitHistory, query) : [] };
  });

  // GetOrder: active orders only (working, or an open position).
  app.get('/order/:orderId', async (request) =>
    trading.getOrder(Number((request.params as { orderId: string }).orderId)),
  );

  // GetClientAccountMargin
  app.get('/margin/ClientAccountMargin', async () => dtos.margin(trading.cash(), trading.marginUsed()));
}
