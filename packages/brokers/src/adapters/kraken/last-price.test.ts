// lastPrice against the Kraken fake: public Ticker for the pair an order would name, c[0] (last
// trade closed); a pair Kraken does not list is refused.
import { beforeEach, expect, it } from 'vitest';
import { context, expectBrokerError, quoteOf } from '../../ccxt/test-support.ts';
import type { BrokerSession } from '../../core/broker.ts';
import { createKrakenBroker } from './adapter.ts';
import { createKrakenFake, KRAKEN_FAKE_KEY, KRAKEN_FAKE_SECRET, type KrakenFake } from './fake.ts';

const broker = createKrakenBroker();
let fake: KrakenFake;
let baseUrl: string;
let session: BrokerSession;

beforeEach(async () => {
  fake = createKrakenFake();
  baseUrl = await fake.start();
  session = await broker.connect(context(baseUrl), {
    credentials: { apiKey: KRAKEN_FAKE_KEY, apiSecret: KRAKEN_FAKE_SECRET },
  });
  return () => fake.close();
});

const lastPrice = (symbol: string, accountId?: string) => quoteOf(broker, baseUrl, session, symbol, accountId);

it('quotes the last trade of the pair an order goes to (XBT/USD as XXBTZUSD)', async () => {
  expect(await lastPrice('BTC/USD')).toBe(65000);
  expect(fake.calls('GET', '/0/public/Ticker').at(-1)?.url).toBe('/0/public/Ticker?pair=XXBTZUSD');
  expect(await lastPrice('ETHUSD')).toBe(3000);
});

it('refuses a symbol Kraken does not list, and an account not of this connection', async () => {
  await expectBrokerError(lastPrice('DOGE/EUR'), 'InvalidOrder', 'Kraken: unknown symbol DOGE/EUR');
  await expectBrokerError(lastPrice('BTC/USD', 'other'), 'AuthenticationError', /^Kraken: account other/);
});
