// A paper broker on a memory store with a hand-set market and clock, for the tests.
import type { Order } from '@router/orders';
import type { BrokerContext, BrokerSession } from '../../core/broker.ts';
import { createPaperBroker } from './adapter.ts';
import type { QuoteSource } from './quotes.ts';
import { createMemoryPaperStore, type PaperStore } from './store.ts';
import type { ListedSymbol } from './symbol-list.ts';

/** Monday 6 January 2025, 14:30 UTC. */
export const START = Date.UTC(2025, 0, 6, 14, 30);
export const MINUTE = 60_000;

export interface FixtureOptions {
  startingCash?: number;
  /** Market prices by time; default: the `prices` map (by price key: AAPL, BTCUSD, ES), whatever the time. */
  quote?: QuoteSource;
  store?: PaperStore;
  symbols?: ListedSymbol[];
}

export async function paperFixture(options: FixtureOptions = {}) {
  let now = START;
  let signals = 0;
  let accounts = 0;
  const prices = new Map<string, number>([
    ['AAPL', 100],
    ['MSFT', 400],
    ['BTCUSD', 50_000],
    ['EURUSD', 1.1],
  ]);
  const quote: QuoteSource = options.quote ?? ((symbol) => prices.get(symbol) ?? 10);
  const store = options.store ?? createMemoryPaperStore();
  const broker = createPaperBroker({
    store,
    quote,
    now: () => now,
    ...(options.startingCash !== undefined ? { startingCash: options.startingCash } : {}),
    ...(options.symbols ? { symbols: options.symbols } : {}),
    newAccountId: () => `PA-TEST${++accounts}`,
  });
  const ctx: BrokerContext = { baseUrl: '' };
  const session: BrokerSession = await broker.connect(ctx, { credentials: {} });
  const accountId = session.accounts[0]?.id ?? '';

  const order = (fields: Partial<Order>): Order => ({
    symbol: 'AAPL',
    class: 'stock',
    action: 'buy',
    quantity: 1,
    quantity_type: 'fixed',
    type: 'market',
    duration: 'gtc',
    ...fields,
  });

  return {
    broker,
    ctx,
    session,
    accountId,
    prices,
    order,
    place: (fields: Partial<Order>, clientOrderId = `signal-${++signals}`) =>
      broker.placeOrder(ctx, session, { accountId, clientOrderId, order: order(fields) }),
    holdings: () => broker.getHoldings(ctx, session, accountId),
    view: () => broker.accountView(ctx, session, accountId),
    getOrder: (clientOrderId: string) => broker.findByClientId(ctx, session, accountId, clientOrderId),
    /** Moves the clock; the next call on the account sweeps resting orders up to it. */
    advance: (ms: number) => {
      now += ms;
    },
    now: () => now,
  };
}
