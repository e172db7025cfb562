// The broker registry of this server: every folder of packages/brokers/src/adapters (found when
// that package loads), with the paper broker keeping its accounts in this database.
import { type Broker, brokerModules, createBrokerRegistry, createPaperBroker } from '@router/brokers';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import { createPostgresPaperStore } from './modules/paper/index.ts';

/** Provider names, for config validation of `<BROKER>_*` variables (no broker is built). */
export function brokerNames(): string[] {
  return brokerModules.map((module) => module.descriptor.name);
}

/** The registry; the paper broker keeps its accounts in `db`. `extra` adds brokers (tests). */
export function createBrokers(config: Config, db: Database, extra: readonly Broker[] = []) {
  const brokers = brokerModules.map((module) =>
    module.descriptor.name === 'paper'
      ? createPaperBroker({
          store: createPostgresPaperStore(db),
          startingCash: config.PAPER_STARTING_CASH,
          symbols: config.PAPER_SYMBOLS_FILE?.symbols,
        })
      : module,
  );
  return createBrokerRegistry([...brokers, ...extra]);
}
