// Entry point: `npm start` runs this with Node 24 (types stripped natively, no build step) and
// the options of node-args.ts.
import { flushCompileCache } from 'node:module';
import { brokerNames } from './brokers.ts';
import { ConfigError, loadProcessConfig } from './config.ts';
import { DataDirLockedError, lockDataDir } from './db/data-lock.ts';
import { createLogger } from './logger.ts';
import type { RunningServer } from './server.ts';

async function main(): Promise<void> {
  let config: ReturnType<typeof loadProcessConfig>;
  try {
    config = loadProcessConfig(brokerNames());
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`Configuration error: ${error.message}`);
      process.exit(2);
    }
    throw error;
  }
  const log = createLogger(config.LOG_LEVEL);
  // The DATA_DIR lock comes before loading the rest of the server, so a second server on the
  // same folder fails at once.
  let heldLock: (() => void) | undefined;
  if (!config.DATABASE_URL) {
    try {
      heldLock = await lockDataDir(config.DATA_DIR);
    } catch (error) {
      if (!(error instanceof DataDirLockedError)) throw error;
      log.fatal(`cannot start: ${error.message}`);
      process.exit(1);
    }
  }
  let server: RunningServer;
  try {
    const { startServer } = await import('./server.ts');
    server = await startServer(config, log, { heldLock });
  } catch (error) {
    log.fatal({ err: error }, `cannot start: ${(error as Error).message}`);
    process.exit(1);
  }
  // Node writes its compile cache (enabled by preload.mjs) at a clean exit; write it now, so a
  // server that is killed rather than stopped also starts from the cache next time.
  flushCompileCache();
  let signals = 0;
  const shutdown = (signal: string) => {
    signals += 1;
    if (signals > 1) {
      log.warn('second signal: exiting now');
      process.exit(130);
    }
    log.info({ signal }, 'shutting down: finishing in-flight requests');
    server.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

await main();
