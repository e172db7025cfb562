// lastPrice against the Coinbase fake: the public market ticker of the product an order would name,
// its last trade's `price`; a product Coinbase does not list is refused.
import { beforeEach, expect, it } from 'vitest';
import { context, expectBrokerError, quoteOf } from '../../ccxt/test-support.ts';
import type { BrokerSession } from '../../core/broker.ts';
import { createCoinbaseBroker } from './adapter.ts';
import { COINBASE_KEY_NAME, type CoinbaseFake, createCoinbaseFake } from './fake.ts';

const broker = createCoinbaseBroker();
let fake: CoinbaseFake;
let baseUrl: string;
let session: BrokerSession;

beforeEach(async () => {
  fake = createCoinbaseFake();
  baseUrl = await fake.start();
  session = await broker.connect(context(baseUrl), {
    credentials: { apiKeyName: COINBASE_KEY_NAME, privateKey: fake.privateKeyPem },
  });
  return () => fake.close();
});

const lastPrice = (symbol: string, accountId?: string) => quoteOf(broker, baseUrl, session, symbol, accountId);

it.each([
  ['XBTUSD', 'BTC-USD', 65000],
  ['ETH/USD', 'ETH-USD', 3000],
])('quotes %s from the %s ticker’s last trade', async (symbol, id, price) => {
  expect(await lastPrice(symbol)).toBe(price);
  const [request] = fake.calls('GET', `/api/v3/brokerage/market/products/${id}/ticker`);
  expect(request?.url).toBe(`/api/v3/brokerage/market/products/${id}/ticker?limit=1`);
});

it('refuses a product Coinbase does not list, and an account not of this connection', async () => {
  await expectBrokerError(lastPrice('DOGE/EUR'), 'InvalidOrder', 'Coinbase: unknown symbol DOGE/EUR');
  await expectBrokerError(lastPrice('BTC-USD', 'other'), 'AuthenticationError', /^Coinbase: account other/);
});
