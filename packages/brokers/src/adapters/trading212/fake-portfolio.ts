// The Trading 212 fake's read-only routes: account summary, open positions and order history
// (one page; nextPagePath null), in the shapes of the API description.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Account } from './fake.ts';
import type { FakeInstrument } from './fake-book.ts';
import { orderView } from './fake-book.ts';

type Json = Record<string, unknown>;

export interface PortfolioState {
  accountOf: (request: FastifyRequest) => Account;
  priceOf: (ticker: string) => number;
  now: () => number;
  instruments: FakeInstrument[];
}

export function registerPortfolioRoutes(app: FastifyInstance, state: PortfolioState): void {
  const { accountOf, priceOf, now, instruments } = state;
  app.get('/api/v0/equity/account/summary', async (request) => {
    const account = accountOf(request);
    const invested = [...account.positions].reduce((sum, [ticker, p]) => sum + p.quantity * priceOf(ticker), 0);
    return {
      id: account.id,
      currency: account.currency,
      cash: { availableToTrade: account.cash, reservedForOrders: 0, inPies: 0 },
      investments: { currentValue: invested, totalCost: invested, realizedProfitLoss: 0, unrealizedProfitLoss: 0 },
      totalValue: account.cash + invested,
    };
  });
  app.get('/api/v0/equity/history/orders', async (request) => {
    const { ticker } = request.query as Json;
    const done = [...accountOf(request).orders.values()].filter(
      (o) => o.status !== 'NEW' && (!ticker || o.ticker === ticker),
    );
    const items = done.reverse().map((order) => ({
      order: orderView(order, instruments),
      ...(order.fillPrice !== undefined
        ? { fill: { price: order.fillPrice, quantity: order.filledQuantity, filledAt: order.createdAt, type: 'TRADE' } }
        : {}),
    }));
    return { items, nextPagePath: null };
  });
  app.get('/api/v0/equity/positions', async (request) => {
    const { ticker } = request.query as Json;
    const account = accountOf(request);
    // Shares a pending sell order (a stop loss, a take profit) would sell are not available for trading.
    const reserved = (symbol: string) =>
      [...account.orders.values()]
        .filter((o) => o.ticker === symbol && o.quantity < 0 && (o.status === 'NEW' || o.status === 'CANCELLING'))
        .reduce((sum, o) => sum - o.quantity, 0);
    return [...account.positions]
      .filter(([symbol]) => !ticker || symbol === ticker)
      .map(([symbol, p]) => ({
        instrument: { ticker: symbol, name: symbol, currency: 'USD', isin: 'XX0000000000' },
        quantity: p.quantity,
        quantityAvailableForTrading: Math.max(0, p.quantity - reserved(symbol)),
        quantityInPies: 0,
        averagePricePaid: p.averagePrice,
        currentPrice: priceOf(symbol),
        createdAt: new Date(now()).toISOString(),
        walletImpact: {
          currency: 'USD',
          currentValue: p.quantity * priceOf(symbol),
          totalCost: p.quantity * p.averagePrice,
        },
      }));
  });
}
