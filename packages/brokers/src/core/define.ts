// What a broker folder exports: `adapters/<name>/index.ts` default-exports defineBroker({ … }).
// The descriptor is readable without building the adapter (config validation, the docs, the
// providers list); the adapter's code is imported only when the broker is first used, so a
// server holds the code of the brokers its users trade with, not all of them.
import type { Broker, BrokerDescriptor } from './broker.ts';

export interface BrokerModule {
  readonly descriptor: BrokerDescriptor;
  /** A ready adapter, its code imported on the first call; settings come per call through the BrokerContext. */
  load(): Promise<Broker>;
}

export function defineBroker(module: BrokerModule): BrokerModule {
  return module;
}

export function isBrokerModule(value: unknown): value is BrokerModule {
  if (!value || typeof value !== 'object') return false;
  const { descriptor, load } = value as Partial<BrokerModule>;
  return typeof load === 'function' && typeof descriptor?.name === 'string' && typeof descriptor.has === 'object';
}
