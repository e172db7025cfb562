// The broker registry of this server: every adapter that works, with its configuration.
import {
  type Broker,
  createAlpacaBroker,
  createBitmexBroker,
  createBrokerRegistry,
  createCoinbaseBroker,
  createKrakenBroker,
  createMemoryPaperStore,
  createPaperBroker,
  createSchwabBroker,
  createTradierBroker,
  createTrading212Broker,
  createWooBroker,
  type PaperStore,
} from '@router/brokers';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import { createPostgresPaperStore } from './modules/paper/index.ts';

function allBrokers(paperStore: PaperStore, config?: Config): Broker[] {
  return [
    createPaperBroker({
      store: paperStore,
      startingCash: config?.PAPER_STARTING_CASH,
      symbols: config?.PAPER_SYMBOLS_FILE?.symbols,
    }),
    createAlpacaBroker(),
    createBitmexBroker(),
    createCoinbaseBroker(),
    createKrakenBroker(),
    createSchwabBroker(),
    createTradierBroker(),
    createTrading212Broker(),
    createWooBroker(),
  ];
}

/** Provider names, for config validation of `<BROKER>_*` variables (no database needed). */
export function brokerNames(): string[] {
  return allBrokers(createMemoryPaperStore()).map((b) => b.descriptor.name);
}

/** The registry; the paper broker keeps its accounts in `db`. `extra` adds brokers (tests). */
export function createBrokers(config: Config, db: Database, extra: readonly Broker[] = []) {
  return createBrokerRegistry([...allBrokers(createPostgresPaperStore(db), config), ...extra]);
}
