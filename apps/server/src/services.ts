// What request handlers get from the running server: configuration, database, logger, brokers.
import type { BrokerRegistry } from '@router/brokers';
import type { Logger } from 'pino';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import type { Identity } from './modules/auth/runtime.ts';
import type { ServerCounters } from './modules/metrics/counters.ts';

export interface Services {
  config: Config;
  db: Database;
  log: Logger;
  brokers: BrokerRegistry;
  /** AES-256-GCM key for broker credentials at rest. */
  secretsKey: Buffer;
  /** Rate limiter, session cache, mailer and social key sets of this instance. */
  identity: Identity;
  /** Signals, hook answers and broker errors counted for /metrics. */
  counters: ServerCounters;
}
