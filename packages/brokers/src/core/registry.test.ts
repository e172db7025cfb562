import { describe, expect, it } from 'vitest';
import type { Broker, BrokerDescriptor } from './broker.ts';
import { NO_CAPABILITIES } from './capabilities.ts';
import { brokerVariables, configPrefix, resolveBrokerContext } from './context.ts';
import { createBrokerRegistry } from './registry.ts';

function fakeBroker(descriptor: Partial<BrokerDescriptor> & { name: string }): Broker {
  const unused = () => Promise.reject(new Error('not used'));
  return {
    descriptor: {
      title: descriptor.name,
      status: 'active',
      authentication: { type: 'credentials', credentials: ['apiKey'] },
      reference: {},
      has: NO_CAPABILITIES,
      clientOrderId: null,
      ...descriptor,
    },
    connect: unused,
    placeOrder: unused,
  };
}

const registry = createBrokerRegistry([
  fakeBroker({ name: 'zeta', title: 'Zeta Securities', baseUrl: 'https://api.zeta.example' }),
  fakeBroker({ name: 'alpha', title: 'alpha markets', status: 'beta' }),
  fakeBroker({ name: 'gone', title: 'Gone Broker', status: 'disabled', notice: 'API disabled by a merger' }),
  fakeBroker({ name: 'bravo', title: 'Bravo', scale: 1.2, authentication: { type: 'open', credentials: ['code'] } }),
  fakeBroker({ name: 'aardvark', title: 'Aardvark', status: 'unavailable' }),
]);

describe('createBrokerRegistry', () => {
  it('finds brokers by name, disabled ones included', () => {
    expect(registry.get('zeta')?.descriptor.title).toBe('Zeta Securities');
    expect(registry.get('gone')?.descriptor.status).toBe('disabled');
    expect(registry.get('nope')).toBeUndefined();
    expect(registry.list().map((broker) => broker.descriptor.name)).toEqual([
      'zeta',
      'alpha',
      'gone',
      'bravo',
      'aardvark',
    ]);
  });

  it('lists providers but disabled ones, active, beta, then unavailable, by title, without server-only fields', () => {
    const providers = registry.providers();
    expect(providers.map((provider) => provider.name)).toEqual(['bravo', 'zeta', 'alpha', 'aardvark']);
    expect(providers[1]).toEqual({
      name: 'zeta',
      title: 'Zeta Securities',
      status: 'active',
      authentication: { type: 'credentials', credentials: ['apiKey'] },
      reference: {},
    });
    expect(providers[0]?.scale).toBe(1.2);
  });

  it('hands out providers nobody can change', () => {
    const provider = registry.providers()[0];
    expect(() => {
      if (provider) (provider as { title: string }).title = 'changed';
    }).toThrow();
    expect(registry.get('bravo')?.descriptor.title).toBe('Bravo');
  });

  it('refuses a name registered twice or not fit for a config variable', () => {
    expect(() => createBrokerRegistry([fakeBroker({ name: 'a' }), fakeBroker({ name: 'a' })])).toThrow(
      'registered twice',
    );
    expect(() => createBrokerRegistry([fakeBroker({ name: 'Bad-Name' })])).toThrow('lower-case');
  });
});

describe('resolveBrokerContext', () => {
  const zeta = registry.get('zeta')?.descriptor;
  const bravo = registry.get('bravo')?.descriptor;
  if (!zeta || !bravo) throw new Error('fixture missing');

  it('uses the descriptor base URL unless <NAME>_BASE_URL overrides it', () => {
    expect(resolveBrokerContext(zeta, {}).baseUrl).toBe('https://api.zeta.example');
    const ctx = resolveBrokerContext(zeta, {
      config: { baseUrl: 'http://127.0.0.1:4010/', clientId: 'id', clientSecret: ' ' },
    });
    expect(ctx).toEqual({ baseUrl: 'http://127.0.0.1:4010', clientId: 'id' });
  });

  it('gives OAuth brokers their callback URL, the clock and the deadline', () => {
    const now = () => 42;
    const signal = AbortSignal.timeout(1000);
    const ctx = resolveBrokerContext(bravo, { publicUrl: 'https://router.example/', now }, signal);
    expect(ctx).toEqual({ baseUrl: '', redirectUrl: 'https://router.example/callback/bravo', now, signal });
    expect(resolveBrokerContext(zeta, { publicUrl: 'https://router.example' }).redirectUrl).toBeUndefined();
  });

  it('derives config names from broker names', () => {
    expect(configPrefix('paper')).toBe('PAPER');
    expect(configPrefix('interactive_brokers')).toBe('INTERACTIVE_BROKERS');
    expect(brokerVariables('interactive_brokers', { baseUrl: 'http://127.0.0.1:1', clientSecret: 's' })).toEqual({
      INTERACTIVE_BROKERS_BASE_URL: 'http://127.0.0.1:1',
      INTERACTIVE_BROKERS_CLIENT_SECRET: 's',
    });
  });
});
