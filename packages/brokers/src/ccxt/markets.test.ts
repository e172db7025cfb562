// The venue's market list is loaded once and shared by the calls to one endpoint: before, every
// order, lookup and connect fetched the whole list again (Kraken's AssetPairs here) on its path.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createKrakenBroker } from '../adapters/kraken/adapter.ts';
import { createKrakenFake, KRAKEN_FAKE_KEY, KRAKEN_FAKE_SECRET, type KrakenFake } from '../adapters/kraken/fake.ts';
import { MARKETS_RELOAD_MS, MARKETS_STALE_MS, MARKETS_TTL_MS } from './markets.ts';
import { context, order } from './test-support.ts';

const broker = createKrakenBroker();
const credentials = { apiKey: KRAKEN_FAKE_KEY, apiSecret: KRAKEN_FAKE_SECRET };
const fakes: KrakenFake[] = [];

async function started() {
  const fake = createKrakenFake();
  fakes.push(fake);
  const baseUrl = await fake.start();
  const session = await broker.connect(context(baseUrl), { credentials });
  const place = (fields: Parameters<typeof order>[0], clientOrderId: string) =>
    broker.placeOrder(context(baseUrl), session, { accountId: 'default', order: order(fields), clientOrderId });
  const listsFetched = () => fake.calls('GET', '/0/public/AssetPairs').length;
  return { fake, baseUrl, session, place, listsFetched };
}

afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(fakes.splice(0).map((fake) => fake.close()));
});

describe('the shared market list', () => {
  it('is fetched once for a connect and the orders and lookups after it', async () => {
    const { baseUrl, session, place, listsFetched } = await started();
    const placed = [];
    for (let i = 0; i < 3; i++) placed.push(await place({}, `shared-${i}`));
    expect(await broker.findByBrokerId(context(baseUrl), session, 'default', placed[1]?.id ?? '')).toMatchObject({
      id: placed[1]?.id,
    });
    expect(listsFetched()).toBe(1);
  });

  it('is kept per endpoint: another base URL (a sandbox, another fake) loads its own', async () => {
    const first = await started();
    const second = await started();
    await first.place({}, 'a-1');
    await second.place({}, 'b-1');
    expect([first.listsFetched(), second.listsFetched()]).toEqual([1, 1]);
  });

  it('is loaded again for a symbol it lacks (a new listing), at most once a minute', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const fake = createKrakenFake();
    fakes.push(fake);
    const baseUrl = await fake.start();
    // The list as it stood before ETH/USD was listed.
    const full = (await (await fetch(`${baseUrl}/0/public/AssetPairs`)).json()) as { result: Record<string, unknown> };
    const { XETHZUSD: _listedLater, ...before } = full.result;
    fake.inject({ method: 'GET', path: '/0/public/AssetPairs', status: 200, body: { error: [], result: before } });
    const session = await broker.connect(context(baseUrl), { credentials });
    const eth = () =>
      broker.placeOrder(context(baseUrl), session, {
        accountId: 'default',
        order: order({ symbol: 'ETH/USD', quantity: 0.1 }),
        clientOrderId: `eth-${Date.now()}`,
      });
    const listsFetched = () => fake.calls('GET', '/0/public/AssetPairs').length - 1;

    await expect(eth()).rejects.toThrow('Kraken: unknown symbol ETH/USD');
    expect(listsFetched()).toBe(1); // refused from the list loaded within the minute
    vi.setSystemTime(Date.now() + MARKETS_RELOAD_MS + 1_000);
    expect((await eth()).status).toBeDefined();
    expect(listsFetched()).toBe(2);
    expect(fake.orders.map((placed) => placed.fields.pair)).toEqual(['XETHZUSD']);
  });

  /** A fake whose list a first order loaded `ms` ago; the list's endpoint fails next. */
  async function listAged(ms: number) {
    vi.useFakeTimers({ toFake: ['Date'] });
    const world = await started();
    await world.place({}, `first-${ms}`);
    vi.setSystemTime(Date.now() + ms);
    world.fake.inject({ method: 'GET', path: '/0/public/AssetPairs', status: 503, body: 'Service Unavailable' });
    return world;
  }

  it('serves an order from a list past its ten minutes while it is loaded again in the background', async () => {
    const { fake, place, listsFetched } = await listAged(MARKETS_TTL_MS + 1_000);
    // The list's endpoint fails: the order does not wait for it, nor fail with it.
    expect((await place({}, 'aged-2')).status).toBeDefined();
    await vi.waitFor(() => expect(listsFetched()).toBe(2));
    // The failed load left the aged list in use: the next order loads it again, and it holds.
    expect((await place({}, 'aged-3')).status).toBeDefined();
    await vi.waitFor(() => expect(listsFetched()).toBe(3));
    await place({}, 'aged-4');
    expect(listsFetched()).toBe(3);
    expect(fake.orders).toHaveLength(4);
  });

  it("loads a list older than a day on the order's path", async () => {
    const { fake, place, listsFetched } = await listAged(MARKETS_STALE_MS + 1_000);
    await expect(place({}, 'day-2')).rejects.toThrow(/Kraken/);
    expect(listsFetched()).toBe(2);
    expect(fake.orders).toHaveLength(1);
  });
});
