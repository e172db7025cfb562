// lastPrice against the BitMEX fake: GET /api/v1/instrument?symbol=<the order's contract>, its
// `lastPrice`; a contract BitMEX does not list is refused.
import { beforeEach, expect, it } from 'vitest';
import { context, expectBrokerError, quoteOf } from '../../ccxt/test-support.ts';
import type { BrokerSession } from '../../core/broker.ts';
import { createBitmexBroker } from './adapter.ts';
import { BITMEX_FAKE_KEY, BITMEX_FAKE_SECRET, type BitmexFake, createBitmexFake } from './fake.ts';

const broker = createBitmexBroker();
let fake: BitmexFake;
let baseUrl: string;
let session: BrokerSession;

beforeEach(async () => {
  fake = createBitmexFake();
  baseUrl = await fake.start();
  session = await broker.connect(context(baseUrl), {
    credentials: { apiKey: BITMEX_FAKE_KEY, apiSecret: BITMEX_FAKE_SECRET },
  });
  return () => fake.close();
});

const lastPrice = (symbol: string, accountId?: string) => quoteOf(broker, baseUrl, session, symbol, accountId);

it.each([
  ['BTCUSD', 'XBTUSD', 65000],
  ['BTC/USDT', 'XBTUSDT', 65000],
  ['ETH-USD', 'ETHUSD', 3000],
])('quotes %s from the %s instrument’s lastPrice', async (symbol, id, price) => {
  expect(await lastPrice(symbol)).toBe(price);
  expect(fake.calls('GET', '/api/v1/instrument').at(-1)?.url).toBe(`/api/v1/instrument?symbol=${id}`);
});

it('refuses a contract BitMEX does not list, and an account not of this connection', async () => {
  await expectBrokerError(lastPrice('DOGE/EUR'), 'InvalidOrder', 'BitMEX: unknown symbol DOGE/EUR');
  await expectBrokerError(lastPrice('BTCUSD', 'other'), 'AuthenticationError', /^BitMEX: account other/);
});
