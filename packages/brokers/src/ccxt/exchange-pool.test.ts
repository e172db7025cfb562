// ccxt instances are reused by the calls of one connection, never by two calls at once, and each
// call's deadline and errors stay its own.
import type { Exchange } from 'ccxt';
import { afterEach, describe, expect, it } from 'vitest';
import { createKrakenBroker } from '../adapters/kraken/adapter.ts';
import { createKrakenFake, KRAKEN_FAKE_KEY, KRAKEN_FAKE_SECRET, type KrakenFake } from '../adapters/kraken/fake.ts';
import { ExchangePool, MAX_IDLE, setupKey } from './exchange-pool.ts';
import { context, order } from './test-support.ts';

const exchange = (name: string) => ({ name }) as unknown as Exchange;

describe('ExchangePool', () => {
  it('gives an idle instance of the same setup, once', () => {
    const pool = new ExchangePool();
    const a = exchange('a');
    pool.give('k1', a);
    expect(pool.take('k2')).toBeUndefined();
    expect(pool.take('k1')).toBe(a);
    expect(pool.take('k1')).toBeUndefined();
    expect(pool.size).toBe(0);
  });

  it(`keeps at most ${MAX_IDLE}, dropping the least recently used setup's first`, () => {
    const pool = new ExchangePool();
    const old = exchange('old');
    pool.give('old', old);
    for (let i = 0; i < MAX_IDLE; i++) pool.give(`k${i}`, exchange(`k${i}`));
    expect(pool.size).toBe(MAX_IDLE);
    expect(pool.take('old')).toBeUndefined();
    expect(pool.take(`k${MAX_IDLE - 1}`)).toBeDefined();
  });

  it('keys a setup by a digest that holds no credential in the clear', () => {
    const key = setupKey(['https://api.kraken.com', { apiKey: 'key-1', apiSecret: 'secret-1' }]);
    expect(key).not.toContain('secret-1');
    expect(key).toBe(setupKey(['https://api.kraken.com', { apiKey: 'key-1', apiSecret: 'secret-1' }]));
    expect(key).not.toBe(setupKey(['https://api.kraken.com', { apiKey: 'key-1', apiSecret: 'secret-2' }]));
  });
});

describe('a connection’s calls on reused instances', () => {
  const fakes: KrakenFake[] = [];
  afterEach(async () => {
    await Promise.all(fakes.splice(0).map((fake) => fake.close()));
  });

  async function started() {
    const fake = createKrakenFake();
    fakes.push(fake);
    const baseUrl = await fake.start();
    const broker = createKrakenBroker();
    const session = await broker.connect(context(baseUrl), {
      credentials: { apiKey: KRAKEN_FAKE_KEY, apiSecret: KRAKEN_FAKE_SECRET },
    });
    const place = (clientOrderId: string, signal?: AbortSignal) =>
      broker.placeOrder({ ...context(baseUrl), ...(signal ? { signal } : {}) }, session, {
        accountId: 'default',
        order: order({}),
        clientOrderId,
      });
    return { fake, place };
  }

  it('keeps each call’s deadline its own: an aborted call leaves no abort to the next', async () => {
    const { fake, place } = await started();
    const ended = new AbortController();
    ended.abort();
    await expect(place('ended-1', ended.signal)).rejects.toThrow();
    expect((await place('after-1')).status).toBeDefined();
    expect(fake.orders).toHaveLength(1);
  });

  it('runs calls at once on instances of their own, each with its own answer or error', async () => {
    const { fake, place } = await started();
    fake.inject({
      method: 'POST',
      path: '/0/private/AddOrder',
      status: 200,
      body: { error: ['EOrder:Insufficient funds'], result: {} },
    });
    const [refused, placed] = await Promise.allSettled([place('both-1'), place('both-2')]);
    expect(refused).toMatchObject({ status: 'rejected', reason: { kind: 'InsufficientFunds' } });
    expect(placed).toMatchObject({ status: 'fulfilled' });
    expect(fake.orders).toHaveLength(1);
    // And one after them, on an instance one of them gave back.
    expect((await place('both-3')).status).toBeDefined();
    expect(fake.orders).toHaveLength(2);
  });
});
