// The brokers this server offers, by name, and the provider list (SPEC §3 Provider) that the
// connect grid, the docs screen and the order validator read.
import type { Provider } from '@router/orders';
import type { Broker, BrokerDescriptor } from './broker.ts';
import type { BrokerModule } from './define.ts';

export interface BrokerRegistry {
  /** A broker's descriptor, its adapter not loaded (titles, capabilities, config names). */
  descriptor(name: string): BrokerDescriptor | undefined;
  /**
   * A broker's adapter, disabled ones included; its code is imported on the first call (every
   * later call answers the same adapter). Undefined for a name no broker has.
   */
  load(name: string): Promise<Broker | undefined>;
  /** Every registered broker's descriptor, disabled ones included, in registration order. */
  descriptors(): readonly BrokerDescriptor[];
  /** The adapters loaded so far (the server closes them when it stops). */
  loaded(): readonly Broker[];
  /** Providers users see (status not 'disabled'): active, then beta, then unavailable, each by title. */
  providers(): readonly Provider[];
}

const STATUS_ORDER = { active: 0, beta: 1, unavailable: 2, disabled: 3 } as const;

/** The order users see providers in: active, then beta, then unavailable, each by title. */
export function compareProviders(a: Provider, b: Provider): number {
  return (
    STATUS_ORDER[a.status] - STATUS_ORDER[b.status] ||
    a.title.localeCompare(b.title, 'en', { sensitivity: 'base' }) ||
    a.name.localeCompare(b.name)
  );
}

/** The public part of a descriptor (server-only fields such as baseUrl stay here). */
export function toProvider(descriptor: BrokerDescriptor): Provider {
  const { name, title, status, authentication, reference, scale, notice } = descriptor;
  return structuredClone({
    name,
    title,
    status,
    authentication,
    reference,
    ...(scale !== undefined ? { scale } : {}),
    ...(notice !== undefined ? { notice } : {}),
  });
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

/** A broker to register: a ready adapter (paper over the server's store, tests), or a folder's module. */
export type RegisteredBroker = Broker | BrokerModule;

const isModule = (entry: RegisteredBroker): entry is BrokerModule => 'load' in entry;

export function createBrokerRegistry(entries: readonly RegisteredBroker[]): BrokerRegistry {
  const byName = new Map<string, RegisteredBroker>();
  for (const entry of entries) {
    const { name } = entry.descriptor;
    if (!/^[a-z][a-z0-9_]*$/.test(name))
      throw new Error(`broker name "${name}" must be lower-case letters, digits and _`);
    if (byName.has(name)) throw new Error(`broker "${name}" registered twice`);
    byName.set(name, entry);
  }
  const descriptors = Object.freeze(entries.map((entry) => entry.descriptor));
  /** Ready adapters, and those of modules once loaded (what stopping closes). */
  const loaded = new Map<string, Broker>();
  for (const entry of entries) if (!isModule(entry)) loaded.set(entry.descriptor.name, entry);
  /** Each module's one load, shared by every caller; a failed one is forgotten, to be tried again. */
  const loads = new Map<string, Promise<Broker>>();

  function load(name: string): Promise<Broker | undefined> {
    const entry = byName.get(name);
    if (!entry || !isModule(entry)) return Promise.resolve(entry);
    let pending = loads.get(name);
    if (!pending) {
      pending = entry.load().then((broker) => {
        if (broker.descriptor.name !== name) throw new Error(`broker "${name}" loaded as "${broker.descriptor.name}"`);
        loaded.set(name, broker);
        return broker;
      });
      pending.catch(() => loads.delete(name));
      loads.set(name, pending);
    }
    return pending;
  }

  // Computed once: descriptors are static, and the list is served on every page load.
  const providers = deepFreeze(
    descriptors
      .map((descriptor) => toProvider(descriptor))
      .filter((provider) => provider.status !== 'disabled')
      .sort(compareProviders),
  );
  return {
    descriptor: (name) => byName.get(name)?.descriptor,
    load,
    descriptors: () => descriptors,
    loaded: () => [...loaded.values()],
    providers: () => providers,
  };
}
