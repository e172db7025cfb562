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
  it('finds brokers by name, disabled ones included', async () => {
    expect(registry.descriptor('zeta')?.title).toBe('Zeta Securities');
    expect((await registry.load('gone'))?.descriptor.status).toBe('disabled');
    expect(registry.descriptor('nope')).toBeUndefined();
    expect(await registry.load('nope')).toBeUndefined();
    expect(registry.descriptors().map((descriptor) => descriptor.name)).toEqual([
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
    expect(registry.descriptor('bravo')?.title).toBe('Bravo');
  });

  it('refuses a name registered twice or not fit for a config variable', () => {
    expect(() => createBrokerRegistry([fakeBroker({ name: 'a' }), fakeBroker({ name: 'a' })])).toThrow(
      'registered twice',
    );
    expect(() => createBrokerRegistry([fakeBroker({ name: 'Bad-Name' })])).toThrow('lower-case');
  });
});

describe("a folder's broker", () => {
  /** A module as a folder's index.ts makes one, counting how often its code is loaded. */
  function lazyModule(name: string, fail = 0) {
    const broker = fakeBroker({ name });
    const module = {
      descriptor: broker.descriptor,
      loads: 0,
      load: async (): Promise<Broker> => {
        module.loads += 1;
        await new Promise((resolve) => setTimeout(resolve, 5));
        if (module.loads <= fail) throw new Error('import failed');
        return broker;
      },
    };
    return module;
  }

  it('is described without loading its code, and loaded once on first use', async () => {
    const lazy = lazyModule('lazy');
    const ready = fakeBroker({ name: 'ready' });
    const brokers = createBrokerRegistry([lazy, ready]);
    expect(brokers.descriptor('lazy')?.title).toBe('lazy');
    expect(brokers.providers().map((provider) => provider.name)).toEqual(['lazy', 'ready']);
    expect(lazy.loads).toBe(0);
    expect(brokers.loaded()).toEqual([ready]);

    const [first, second] = await Promise.all([brokers.load('lazy'), brokers.load('lazy')]);
    expect(first).toBe(second);
    expect(await brokers.load('lazy')).toBe(first);
    expect(lazy.loads).toBe(1);
    expect(brokers.loaded().map((broker) => broker.descriptor.name)).toEqual(['ready', 'lazy']);
  });

  it('is tried again after its code failed to load', async () => {
    const flaky = lazyModule('flaky', 1);
    const brokers = createBrokerRegistry([flaky]);
    await expect(brokers.load('flaky')).rejects.toThrow('import failed');
    expect(brokers.loaded()).toEqual([]);
    expect((await brokers.load('flaky'))?.descriptor.name).toBe('flaky');
    expect(flaky.loads).toBe(2);
  });

  it('is refused when its code builds another broker', async () => {
    const other = fakeBroker({ name: 'other' });
    const brokers = createBrokerRegistry([
      { descriptor: { ...other.descriptor, name: 'named' }, load: async () => other },
    ]);
    await expect(brokers.load('named')).rejects.toThrow('broker "named" loaded as "other"');
    expect(brokers.loaded()).toEqual([]);
  });
});

describe('resolveBrokerContext', () => {
  const zeta = registry.descriptor('zeta');
  const bravo = registry.descriptor('bravo');
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
