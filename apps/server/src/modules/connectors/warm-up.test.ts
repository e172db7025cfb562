// A start loads the adapters of the brokers that active connections use, and only those, so the
// first signal after a restart does not wait for its broker's code.
import { createBrokerRegistry, defineBroker } from '@router/brokers';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertTestUser, startTestApp, type TestApp } from '../../../test/app.ts';
import { warmBrokerAdapters } from './warm-up.ts';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
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
});
