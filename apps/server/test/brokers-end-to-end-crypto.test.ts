// Issue 8 end to end, crypto exchanges (ccxt): with `<EXCHANGE>_BASE_URL` pointing at each
// exchange's protocol fake, a user connects through connectorCreate and connectorActivate,
// creates a live hook, and a signal sent to it is placed at the fake exactly once, carrying the
// signal id as the exchange's client order id (in the form each exchange accepts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bitmexClientId } from '../../../packages/brokers/src/adapters/bitmex/adapter.ts';
import {
  BITMEX_FAKE_KEY,
  BITMEX_FAKE_SECRET,
  type BitmexFake,
  createBitmexFake,
} from '../../../packages/brokers/src/adapters/bitmex/fake.ts';
import { coinbaseClientId } from '../../../packages/brokers/src/adapters/coinbase/adapter.ts';
import {
  COINBASE_KEY_NAME,
  type CoinbaseFake,
  createCoinbaseFake,
} from '../../../packages/brokers/src/adapters/coinbase/fake.ts';
import { krakenClientId } from '../../../packages/brokers/src/adapters/kraken/adapter.ts';
import {
  createKrakenFake,
  KRAKEN_FAKE_KEY,
  KRAKEN_FAKE_SECRET,
  type KrakenFake,
} from '../../../packages/brokers/src/adapters/kraken/fake.ts';
import { wooClientId } from '../../../packages/brokers/src/adapters/woo/adapter.ts';
import {
  createWooFake,
  WOO_FAKE_KEY,
  WOO_FAKE_SECRET,
  type WooFake,
} from '../../../packages/brokers/src/adapters/woo/fake.ts';
import { authenticateAsUserId, startTestApp, type TestApp } from './app.ts';
import { connectWithCredentials, createLiveHook, placeExactlyOnce, trader } from './broker-journey.ts';

let t: TestApp;
const kraken: KrakenFake = createKrakenFake();
const coinbase: CoinbaseFake = createCoinbaseFake();
const bitmex: BitmexFake = createBitmexFake();
const woo: WooFake = createWooFake();

beforeAll(async () => {
  const [krakenUrl, coinbaseUrl, bitmexUrl, wooUrl] = await Promise.all(
    [kraken, coinbase, bitmex, woo].map((fake) => fake.start()),
  );
  t = await startTestApp({
    authenticate: authenticateAsUserId,
    env: {
      KRAKEN_BASE_URL: krakenUrl ?? '',
      COINBASE_BASE_URL: coinbaseUrl ?? '',
      BITMEX_BASE_URL: bitmexUrl ?? '',
      WOO_BASE_URL: wooUrl ?? '',
    },
  });
});
afterAll(async () => {
  await t?.close();
  await Promise.all([kraken, coinbase, bitmex, woo].map((fake) => fake.close()));
});

describe('crypto exchanges end to end', () => {
  it('kraken: API key and private key, AddOrder with cl_ord_id', async () => {
    const user = await trader(t, 'kraken@example.com');
    const connector = await connectWithCredentials(t, user, 'kraken', {
      apiKey: KRAKEN_FAKE_KEY,
      apiSecret: KRAKEN_FAKE_SECRET,
    });
    const shortKey = await createLiveHook(t, user, connector);
    const signal = { symbol: 'BTCUSD', action: 'buy', quantity: 0.01 };
    const { signalId } = await placeExactlyOnce(t, user, shortKey, signal, () => kraken.orders.length);
    expect(kraken.calls('POST', '/0/private/AddOrder')).toHaveLength(1);
    expect(kraken.orders[0]?.fields).toMatchObject({
      pair: 'XXBTZUSD',
      type: 'buy',
      ordertype: 'market',
      volume: '0.01',
      cl_ord_id: krakenClientId(signalId),
    });
  });

  it('coinbase: CDP key name and EC private key (ES256 JWT), client_order_id', async () => {
    const user = await trader(t, 'coinbase@example.com');
    const connector = await connectWithCredentials(t, user, 'coinbase', {
      apiKeyName: COINBASE_KEY_NAME,
      privateKey: coinbase.privateKeyPem,
    });
    const shortKey = await createLiveHook(t, user, connector);
    const signal = { symbol: 'BTC-USD', action: 'buy', quantity: 0.01 };
    const { signalId } = await placeExactlyOnce(t, user, shortKey, signal, () => coinbase.orders.length);
    expect(coinbase.calls('POST', '/api/v3/brokerage/orders')).toHaveLength(1);
    expect(coinbase.orders[0]).toMatchObject({
      product_id: 'BTC-USD',
      side: 'BUY',
      client_order_id: coinbaseClientId(signalId),
    });
  });

  it('bitmex: API key and secret, contracts in lots, clOrdID', async () => {
    const user = await trader(t, 'bitmex@example.com');
    const connector = await connectWithCredentials(t, user, 'bitmex', {
      apiKey: BITMEX_FAKE_KEY,
      apiSecret: BITMEX_FAKE_SECRET,
    });
    const shortKey = await createLiveHook(t, user, connector);
    const signal = { symbol: 'XBTUSD', action: 'buy', quantity: 100 };
    const { signalId } = await placeExactlyOnce(t, user, shortKey, signal, () => bitmex.orders.length);
    expect(bitmex.calls('POST', '/api/v1/order')).toHaveLength(1);
    expect(bitmex.orders[0]).toMatchObject({
      symbol: 'XBTUSD',
      side: 'Buy',
      orderQty: 100,
      clOrdID: bitmexClientId(signalId),
    });
  });

  it('woo: API key and secret, numeric client_order_id', async () => {
    const user = await trader(t, 'woo@example.com');
    const connector = await connectWithCredentials(t, user, 'woo', {
      apiKey: WOO_FAKE_KEY,
      apiSecret: WOO_FAKE_SECRET,
    });
    const shortKey = await createLiveHook(t, user, connector);
    const signal = { symbol: 'BTCUSDT', action: 'buy', quantity: 0.01 };
    const { signalId } = await placeExactlyOnce(t, user, shortKey, signal, () => woo.orders.length);
    expect(woo.calls('POST', '/v3/trade/order')).toHaveLength(1);
    expect(woo.orders[0]).toMatchObject({
      symbol: 'SPOT_BTC_USDT',
      side: 'BUY',
      clientOrderId: wooClientId(signalId),
    });
  });
});
