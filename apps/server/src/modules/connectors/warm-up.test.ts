// A start loads the adapters of the brokers that active connections use, and only those, and
// warms them (a ccxt venue's market list), so the first signal after a restart waits for neither.
import { type Broker, createBrokerRegistry, defineBroker } from '@router/brokers';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKrakenFake, type KrakenFake } from '../../../../../packages/brokers/src/adapters/kraken/fake.ts';
import { insertTestUser, startTestApp, type TestApp } from '../../../test/app.ts';
import { warmBrokerAdapters } from './warm-up.ts';

let t: TestApp;
let kraken: KrakenFake;

beforeAll(async () => {
  kraken = createKrakenFake();
  t = await startTestApp({ env: { KRAKEN_BASE_URL: await kraken.start() } });
});
afterAll(async () => {
  await t.close();
  await kraken.close();
});

async function insertConnector(
  userId: number,
  key: string,
  providerName: string,
  active: boolean,
  oauthState?: string,
) {
  await t.services.db.$client.query(
    'insert into connectors (key, user_id, provider_name, is_active, oauth_state) values ($1, $2, $3, $4, $5)',
    [key, userId, providerName, active, oauthState ?? null],
  );
}

describe('warmBrokerAdapters', () => {
  it('loads the brokers of active connections, each once, and no other (paper is always ready)', async () => {
    const ann = await insertTestUser(t.services, 'warm-ann@example.com');
    const bob = await insertTestUser(t.services, 'warm-bob@example.com');
    await insertConnector(ann.id, 'c_warm_kraken', 'kraken', true);
    await insertConnector(bob.id, 'c_warm_kraken2', 'kraken', true);
    await insertConnector(ann.id, 'c_warm_tradier', 'tradier', true);
    await insertConnector(ann.id, 'c_warm_bitmex', 'bitmex', false);
    await insertConnector(bob.id, 'c_warm_schwab', 'schwab', false, 'pending-state');
    await insertConnector(bob.id, 'c_warm_retired', 'retired_broker', true);
    await insertConnector(bob.id, 'c_warm_paper', 'paper', true);
    const before = t.services.brokers.loaded().map((broker) => broker.descriptor.name);
    expect(before).not.toContain('kraken');

    const loaded = await warmBrokerAdapters(t.services);

    expect(loaded.sort()).toEqual(['kraken', 'tradier']);
    // Kraken's market list, loaded once for both connections' first orders, without credentials.
    const lists = kraken.calls('GET', '/0/public/AssetPairs');
    expect(lists).toHaveLength(1);
    expect(lists[0]?.headers['api-key']).toBeUndefined();
    const after = t.services.brokers.loaded().map((broker) => broker.descriptor.name);
    expect(after).toEqual(expect.arrayContaining(['kraken', 'tradier']));
    for (const unused of ['bitmex', 'schwab', 'alpaca', 'rithmic', 'ctrader']) expect(after).not.toContain(unused);
  });

  it('logs a broker whose code fails to load and loads the others', async () => {
    const lines: Array<{ msg: string; broker?: string; brokers?: string[] }> = [];
    const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    const kraken = t.services.brokers.descriptor('kraken')!;
    const broken = defineBroker({ descriptor: kraken, load: () => Promise.reject(new Error('boom')) });
    const tradier = t.services.brokers.descriptor('tradier')!;
    const fine = defineBroker({ descriptor: tradier, load: async () => (await t.services.brokers.load('tradier'))! });
    const brokers = createBrokerRegistry([broken, fine]);

    const loaded = await warmBrokerAdapters({ ...t.services, brokers, log });

    expect(loaded).toEqual(['tradier']);
    expect(lines).toContainEqual(expect.objectContaining({ msg: 'broker adapter failed to load', broker: 'kraken' }));
    expect(lines).toContainEqual(expect.objectContaining({ msg: 'broker adapters loaded', brokers: ['tradier'] }));
  });

  it('logs a broker it could not warm, counts it loaded, and ends a warming the server stops', async () => {
    const lines: Array<{ msg: string; broker?: string; brokers?: string[] }> = [];
    const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    const tradier = (await t.services.brokers.load('tradier'))!;
    const alpaca = (await t.services.brokers.load('alpaca'))!;
    const warmed = (broker: Broker, warm: Broker['warm']) =>
      defineBroker({ descriptor: broker.descriptor, load: async () => ({ ...broker, warm }) });
    let warmedWith: AbortSignal | undefined;
    const brokers = createBrokerRegistry([
      warmed(tradier, () => Promise.reject(new Error('exchange unreachable'))),
      // Warms until the server stops.
      warmed(alpaca, (ctx) => {
        warmedWith = ctx.signal;
        return new Promise((_resolve, reject) =>
          ctx.signal?.addEventListener('abort', () => reject(ctx.signal?.reason)),
        );
      }),
    ]);
    const ann = await insertTestUser(t.services, 'warm-cal@example.com');
    await insertConnector(ann.id, 'c_warm_alpaca', 'alpaca', true);
    const stops = new AbortController();

    const warming = warmBrokerAdapters({ ...t.services, brokers, log }, stops.signal);
    await expect.poll(() => warmedWith).toBeDefined();
    stops.abort();

    expect((await warming).sort()).toEqual(['alpaca', 'tradier']);
    expect(lines).toContainEqual(
      expect.objectContaining({ msg: 'broker not warmed', broker: 'tradier', reason: 'exchange unreachable' }),
    );
    expect(lines.filter((line) => line.msg === 'broker not warmed')).toHaveLength(1); // not the stopped one
  });
});
