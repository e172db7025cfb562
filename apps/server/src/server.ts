// Starts and stops the whole server: database (embedded or external), migrations, HTTP, the
// activity retention job.
import { publicUrlProblems } from '@router/shared';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { createBrokers } from './brokers.ts';
import type { Config } from './config.ts';
import { createDatabase, createPool } from './db/client.ts';
import { lockDataDir } from './db/data-lock.ts';
import { startEmbeddedPostgres } from './db/embedded.ts';
import { runMigrations } from './db/migrate.ts';
import { buildApp } from './http/app.ts';
import { startActivityRetention } from './modules/actions/retention.ts';
import { settleAdministrators } from './modules/admin/administrators.ts';
import { authenticate } from './modules/auth/authenticate.ts';
import { createIdentity } from './modules/auth/runtime.ts';
import { startConnectorRefresher } from './modules/connectors/refresher.ts';
import { warmBrokerAdapters } from './modules/connectors/warm-up.ts';
import { ServerCounters } from './modules/metrics/counters.ts';
import { loadSecretsKey } from './secrets-key.ts';
import type { Services } from './services.ts';

export interface RunningServer {
  app: FastifyInstance;
  services: Services;
  url: string;
  /** Finishes in-flight requests, closes the pool, stops the embedded database. */
  stop(): Promise<void>;
}

/**
 * Connects to DATABASE_URL, or starts the embedded PostgreSQL under a DATA_DIR lock (taken
 * here unless the caller already holds it: `heldLock` is its release function).
 */
export async function openDatabase(config: Config, log: Logger, heldLock?: () => void) {
  if (config.DATABASE_URL) return { url: config.DATABASE_URL, stop: async () => {} };
  const release = heldLock ?? (await lockDataDir(config.DATA_DIR));
  try {
    const embedded = await startEmbeddedPostgres(config.DATA_DIR, log, { statementStats: config.PG_STAT_STATEMENTS });
    return {
      url: embedded.url,
      stop: async () => {
        await embedded.stop();
        release();
      },
    };
  } catch (error) {
    release();
    throw error;
  }
}

export async function startServer(
  config: Config,
  log: Logger,
  options: { webApp?: boolean; heldLock?: () => void } = {},
): Promise<RunningServer> {
  const database = await openDatabase(config, log, options.heldLock);
  const pool = createPool(database.url, undefined, { unmeteredCredits: config.SIGNAL_CREDITS.unlimited });
  try {
    await runMigrations(pool);
    const db = createDatabase(pool);
    const services: Services = {
      config,
      db,
      log,
      brokers: createBrokers(config, db),
      secretsKey: loadSecretsKey(config.SECRETS_KEY, config.DATA_DIR),
      identity: createIdentity(config, log, pool),
      counters: new ServerCounters(),
    };
    await settleAdministrators(services);
    const app = await buildApp(services, { authenticate, webApp: options.webApp });
    const address = await app.listen({ port: config.PORT, host: config.HOST });
    log.info({ url: config.PUBLIC_URL, address }, 'server started');
    if (publicUrlProblems(config.PUBLIC_URL).length > 0) {
      log.warn(
        { url: config.PUBLIC_URL },
        'PUBLIC_URL is not a public address on port 80/443: TradingView cannot post to these webhooks (put a reverse proxy or a tunnel in front and set PUBLIC_URL to it)',
      );
    }
    const stopRetention = startActivityRetention(services);
    const stopRefresher = startConnectorRefresher(services);
    // In the background: a signal that comes first loads its broker itself, sharing the same import.
    const warmingEnds = new AbortController();
    const warming = warmBrokerAdapters(services, warmingEnds.signal).catch((error) =>
      log.warn({ err: error }, 'broker adapters not loaded ahead (each loads with its first use)'),
    );
    let stopping: Promise<void> | undefined;
    const stop = () =>
      (stopping ??= (async () => {
        // Told at once (a refresh pass ends after the refresh in hand), waited for once the app is closed.
        warmingEnds.abort();
        const jobs = Promise.all([stopRetention(), stopRefresher(), warming]);
        await app.close();
        await jobs;
        await pool.end();
        await database.stop();
        log.info('server stopped');
      })());
    const port = (app.server.address() as import('node:net').AddressInfo).port;
    return { app, services, url: `http://127.0.0.1:${port}`, stop };
  } catch (error) {
    await pool.end().catch(() => {});
    await database.stop();
    throw error;
  }
}
