// Every ccxt venue loads its market list ahead (warm) and an aged one again in the background, on
// an instance without the connection's credentials: the list's endpoint is public at each of them.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createBitmexBroker } from '../adapters/bitmex/adapter.ts';
import { startProtocolFake as bitmexFake } from '../adapters/bitmex/fake.ts';
import { createCoinbaseBroker } from '../adapters/coinbase/adapter.ts';
import { startProtocolFake as coinbaseFake } from '../adapters/coinbase/fake.ts';
import { createKrakenBroker } from '../adapters/kraken/adapter.ts';
import { startProtocolFake as krakenFake } from '../adapters/kraken/fake.ts';
import { createWooBroker } from '../adapters/woo/adapter.ts';
import { startProtocolFake as wooFake } from '../adapters/woo/fake.ts';
import type { ProtocolFake, StartProtocolFake } from '../core/protocol-fake.ts';
import type { CcxtBroker } from './broker.ts';
import { loadCcxt } from './ccxt-module.ts';
import { MARKETS_TTL_MS } from './markets.ts';
import { context } from './test-support.ts';

const VENUES: ReadonlyArray<[string, () => CcxtBroker, StartProtocolFake, string]> = [
  ['BitMEX', createBitmexBroker, bitmexFake, '/api/v1/instrument/active'],
  ['Coinbase', createCoinbaseBroker, coinbaseFake, '/api/v3/brokerage/market/products'],
  ['Kraken', createKrakenBroker, krakenFake, '/0/public/AssetPairs'],
  ['WOO X', createWooBroker, wooFake, '/v3/public/instruments'],
];

// ccxt keeps the Date.now it finds when it loads, and the fakes check its timestamps against
// theirs: one fake clock, installed before ccxt loads, is moved on for the whole file.
beforeAll(async () => {
  vi.useFakeTimers({ toFake: ['Date'] });
  await loadCcxt();
});
afterAll(() => {
  vi.useRealTimers();
});

const fakes: ProtocolFake[] = [];
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((fake) => fake.close()));
});

/** The venue's broker on its fake: connect, warm, and how many times its list was fetched. */
async function started(create: () => CcxtBroker, start: StartProtocolFake, listPath: string) {
  const fake = await start();
  fakes.push(fake);
  const broker = create();
  const ctx = context(String(fake.config.baseUrl));
  return {
    fake,
    connect: () => broker.connect(ctx, { credentials: fake.credentials('') }),
    warm: () => broker.warm?.(ctx),
    fetched: () => fake.requests().filter((r) => r.method === 'GET' && r.path === listPath).length,
  };
}

/** How many fetches of the list one load is (three for Coinbase's product types), after `load` made one. */
async function fetchesPerLoad(load: () => Promise<unknown> | undefined, fetched: () => number): Promise<number> {
  await load();
  const perLoad = fetched();
  expect(perLoad).toBeGreaterThan(0);
  return perLoad;
}

describe('an aged market list at each ccxt venue', () => {
  it.each(VENUES)(
    '%s: serves while it is loaded again in the background, without credentials, and is then held',
    async (_title, create, start, listPath) => {
      const { fake, connect, fetched } = await started(create, start, listPath);
      const perLoad = await fetchesPerLoad(connect, fetched);
      vi.setSystemTime(Date.now() + MARKETS_TTL_MS + 1_000);
      // The aged list serves the connect while its reload fails (before, the connect failed).
      fake.answerNext({ method: 'GET', path: listPath, status: 503, body: 'Service Unavailable' });
      await connect();
      await vi.waitFor(() => expect(fetched()).toBeGreaterThan(perLoad), { timeout: 10_000 });
      // Each connect starts a reload while the list is aged: one without credentials that holds
      // ends that. Had it failed (an endpoint wanting them), every connect would start another.
      await vi.waitFor(
        async () => {
          const before = fetched();
          await connect();
          expect(fetched()).toBe(before);
        },
        { timeout: 10_000 },
      );
    },
  );

  it.each(VENUES)(
    '%s: warm() loads it ahead, without credentials, for the first connect',
    async (_title, create, start, listPath) => {
      const { connect, warm, fetched } = await started(create, start, listPath);
      const perLoad = await fetchesPerLoad(warm, fetched);
      await connect();
      expect(fetched()).toBe(perLoad);
    },
  );
});
