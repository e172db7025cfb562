// lastPrice against the Robinhood fake: the pair an order would trade, then the signed v1
// best_bid_ask; the midpoint of bid_inclusive_of_sell_spread and ask_inclusive_of_buy_spread.
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import type { BrokerContext, BrokerSession } from '../../core/broker.ts';
import { createRobinhoodBroker } from './adapter.ts';
import { type RobinhoodFake, startRobinhoodFake } from './fake.ts';
import { failure } from './test-support.ts';

let fake: RobinhoodFake;
let ctx: BrokerContext;
let session: BrokerSession;
const broker = createRobinhoodBroker();

beforeAll(async () => {
  fake = await startRobinhoodFake();
  ctx = { baseUrl: fake.url };
  session = await broker.connect(ctx, { credentials: fake.credentials });
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.requests.length = 0;
});

const quoted = () => fake.requests.filter((r) => r.url.startsWith('/api/v1/crypto/marketdata/best_bid_ask/'));

it.each([
  ['987654321', 'BTC/USD', 'BTC-USD', 61234.56],
  ['v2:987654321', 'ethusd', 'ETH-USD', 3400],
])('account %s quotes %s at the %s bid/ask midpoint', async (accountId, symbol, pair, mid) => {
  expect(await broker.lastPrice(ctx, session, accountId, symbol, 'crypto')).toBeCloseTo(mid, 6);
  expect(quoted().map((r) => [r.method, r.url])).toEqual([
    ['GET', `/api/v1/crypto/marketdata/best_bid_ask/?symbol=${pair}`],
  ]);
});

it('refuses a pair Robinhood does not list, or a stock, before asking for a quote', async () => {
  const unknown = await failure(broker.lastPrice(ctx, session, '987654321', 'ZZZ/USD', 'crypto'));
  expect(unknown).toMatchObject({ kind: 'InvalidOrder', message: 'Robinhood: ZZZ-USD is not a crypto pair it lists' });
  const stock = await failure(broker.lastPrice(ctx, session, '987654321', 'AAPL', 'stock'));
  expect(stock.message).toMatch(/^Robinhood: AAPL is not a crypto asset it lists/);
  expect(quoted()).toEqual([]);
});
