// What a broker folder exports: `adapters/<name>/index.ts` default-exports defineBroker({ … }).
// The descriptor is readable without building the adapter (config validation, the docs).
import type { Broker, BrokerDescriptor } from './broker.ts';

export interface BrokerModule {
  readonly descriptor: BrokerDescriptor;
  /** A ready adapter; settings come per call through the BrokerContext. */
  create(): Broker;
}

export function defineBroker(module: BrokerModule): BrokerModule {
  return module;
}

export function isBrokerModule(value: unknown): value is BrokerModule {
  if (!value || typeof value !== 'object') return false;
  const { descriptor, create } = value as Partial<BrokerModule>;
  return typeof create === 'function' && typeof descriptor?.name === 'string' && typeof descriptor.has === 'object';
}
