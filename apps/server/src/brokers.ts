// The broker registry of this server: every adapter that works, with its configuration.
import { type Broker, createBrokerRegistry, createMemoryPaperStore, createPaperBroker } from '@router/brokers';
import type { Config } from './config.ts';

function allBrokers(config?: Config): Broker[] {
  return [createPaperBroker({ store: createMemoryPaperStore(), startingCash: config?.PAPER_STARTING_CASH })];
}

/** Provider names, for config validation of `<BROKER>_*` variables. */
export function brokerNames(): string[] {
  return allBrokers().map((b) => b.descriptor.name);
}

export function createBrokers(config: Config) {
  return createBrokerRegistry(allBrokers(config));
}
