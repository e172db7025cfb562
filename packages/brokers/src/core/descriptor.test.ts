// Every broker folder against its own declaration (ccxt's test.features): a capability declared
// is a method present, a method present is declared, `reference` names only order parameters,
// and the tables a screen or reconciliation reads are well formed. A new folder is checked here.
import { defaultExamplePayload, normalizeOrder, ORDER_PARAMETERS } from '@router/orders';
import { describe, expect, it } from 'vitest';
import { brokersTable } from '../brokers-table.ts';
import { brokerFolders, brokerModules } from '../discover.ts';
import { CAPABILITY_METHODS, NO_CAPABILITIES, summarize } from './capabilities.ts';
import { BROKER_ERROR_KINDS, BrokerError } from './errors.ts';
import { createBrokerRegistry, toProvider } from './registry.ts';
import { isUnavailable } from './unavailable.ts';

const all = await Promise.all(brokerModules.map((module) => module.load()));
const brokers = all.filter((broker) => !isUnavailable(broker.descriptor));
const unavailable = all.filter((broker) => isUnavailable(broker.descriptor));

it('finds one broker per folder of adapters/, named as its folder', () => {
  expect(brokerModules.map((module) => module.descriptor.name)).toEqual(brokerFolders());
  // What the registry shows before loading (titles, providers) is what the adapter runs by.
  expect(all.map((broker) => broker.descriptor)).toEqual(brokerModules.map((module) => module.descriptor));
  for (const [i, module] of brokerModules.entries()) expect(all[i]?.descriptor).toBe(module.descriptor);
  expect(() => createBrokerRegistry(all)).not.toThrow();
});

it('draws the brokers table (npm run brokers) from every descriptor', () => {
  const lines = brokersTable().split('\n');
  expect(lines).toHaveLength(brokerModules.length + 2);
  for (const { descriptor } of unavailable) {
    expect(lines.find((line) => line.includes(`(\`${descriptor.name}\``))).toMatch(/, unavailable\) \| — \|/);
  }
  expect(lines.find((line) => line.includes('(`schwab`'))).toMatch(
    /\| OAuth \| stock, option \|.*\| yes \| yes \| — \| broker order id, recent orders \(terms\) \|$/,
  );
});

describe.each(brokers.map((broker) => [broker.descriptor.name, broker] as const))('%s', (_name, broker) => {
  const { descriptor } = broker;
  const { has } = descriptor;

  it('has a method exactly where `has` declares the capability', () => {
    const declared = Object.keys(CAPABILITY_METHODS).map((capability) => [
      capability,
      (has[capability as keyof typeof CAPABILITY_METHODS] ?? false) !== false,
    ]);
    const present = Object.entries(CAPABILITY_METHODS).map(([capability, method]) => [
      capability,
      typeof broker[method] === 'function',
    ]);
    expect(present).toEqual(declared);
    // An OAuth provider sends the user to the broker: at once, or after asking it (OAuth 1.0a).
    const authorizes = [broker.authorizationUrl, broker.startAuthorization].filter((m) => typeof m === 'function');
    expect(authorizes.length).toBe(descriptor.authentication.type === 'open' ? 1 : 0);
  });

  it('searches servers exactly where its connect form names a branch field', () => {
    const { authentication } = descriptor;
    const field = authentication.type === 'credentials' ? authentication.branchSearch : undefined;
    expect(typeof broker.searchBranches === 'function').toBe(field !== undefined);
    if (field !== undefined) expect(authentication.credentials).toContain(field);
  });

  it('declares only known order parameters in its reference', () => {
    const known: readonly string[] = ORDER_PARAMETERS;
    expect(Object.keys(descriptor.reference).filter((key) => !known.includes(key))).toEqual([]);
  });

  it('promises no client_id longer than the order language takes', () => {
    const stated = /up to (\d+) characters/i.exec(descriptor.reference.client_id?.comments ?? '')?.[1];
    if (stated === undefined) return;
    const provider = toProvider(descriptor);
    const order = { ...defaultExamplePayload(provider), client_id: 'a'.repeat(Number(stated)) };
    const result = normalizeOrder(order, { provider });
    expect(result.ok ? 'ok' : result.error.message).toBe('ok');
  });

  it('declares brackets and multi-leg as its reference does', () => {
    const { reference } = descriptor;
    expect(has.brackets).toBe(reference.take_profit_price !== undefined || reference.stop_loss_price !== undefined);
    expect(has.multiLeg).toBe(reference.legs !== undefined);
  });

  it('can find an order again, and its client order id rule matches the routes', () => {
    expect(has.findOrderByClientId || has.findOrderByBrokerId || has.listRecentOrders).not.toBe(false);
    const rule = descriptor.clientOrderId;
    if (!rule) {
      expect(has.findOrderByClientId).toBe(false);
      return;
    }
    expect(rule.maxLength).toBeGreaterThan(0);
    expect(() => new RegExp(rule.pattern)).not.toThrow();
  });

  it('maps broker messages to known error kinds', () => {
    const { exact = {}, broad = {} } = descriptor.exceptions ?? {};
    for (const [message, kind] of Object.entries({ ...exact, ...broad })) {
      expect(message.trim()).not.toBe('');
      expect(BROKER_ERROR_KINDS).toContain(kind);
    }
  });

  it('summarizes for the brokers table', () => {
    const summary = summarize(descriptor);
    expect(summary.classes.length).toBeGreaterThan(0);
    expect(summary.orderTypes).toContain('market');
    expect(summary.durations.length).toBeGreaterThan(0);
  });
});

describe.each(unavailable.map((broker) => [broker.descriptor.name, broker] as const))(
  '%s (unavailable)',
  (_name, broker) => {
    const { descriptor } = broker;

    it('declares nothing it could do, and says why in its help text', () => {
      expect(descriptor.has).toEqual(NO_CAPABILITIES);
      expect(descriptor.reference).toEqual({});
      expect(descriptor.authentication).toMatchObject({ type: 'credentials', credentials: [] });
      expect(descriptor.authentication.help?.length).toBeGreaterThan(40);
    });

    it('refuses to connect or place with that text', async () => {
      const help = descriptor.authentication.help ?? '';
      const ctx = { baseUrl: '' };
      for (const attempt of [
        broker.connect(ctx, { credentials: {} }),
        broker.placeOrder(
          ctx,
          { secrets: {}, accounts: [] },
          {
            accountId: 'a',
            clientOrderId: 'c',
            order: {
              symbol: 'AAPL',
              class: 'stock',
              action: 'buy',
              quantity: 1,
              quantity_type: 'fixed',
              type: 'market',
              duration: 'day',
            },
          },
        ),
      ]) {
        const error = await attempt.then(
          () => undefined,
          (caught: unknown) => caught,
        );
        expect(error).toBeInstanceOf(BrokerError);
        expect((error as BrokerError).message).toBe(`${descriptor.title}: cannot be connected. ${help}`);
      }
    });
  },
);
