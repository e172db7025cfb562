// The brokers this server offers, by name, and the provider list (SPEC §3 Provider) that the
// connect grid, the docs screen and the order validator read.
import type { Provider } from '@router/orders';
import type { Broker, BrokerDescriptor } from './broker.ts';

export interface BrokerRegistry {
  get(name: string): Broker | undefined;
  /** Every registered broker, disabled ones included, in registration order. */
  list(): readonly Broker[];
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

export function createBrokerRegistry(brokers: readonly Broker[]): BrokerRegistry {
  const byName = new Map<string, Broker>();
  for (const broker of brokers) {
    const { name } = broker.descriptor;
    if (!/^[a-z][a-z0-9_]*$/.test(name))
      throw new Error(`broker name "${name}" must be lower-case letters, digits and _`);
    if (byName.has(name)) throw new Error(`broker "${name}" registered twice`);
    byName.set(name, broker);
  }
  const all = Object.freeze([...brokers]);
  // Computed once: descriptors are static, and the list is served on every page load.
  const providers = deepFreeze(
    all
      .map((broker) => toProvider(broker.descriptor))
      .filter((provider) => provider.status !== 'disabled')
      .sort(compareProviders),
  );
  return {
    get: (name) => byName.get(name),
    list: () => all,
    providers: () => providers,
  };
}
