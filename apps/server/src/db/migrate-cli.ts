// `npm run db:migrate`: applies the migrations to DATABASE_URL, or to the embedded PostgreSQL.
import { brokerNames } from '../brokers.ts';
import { loadProcessConfig } from '../config.ts';
import { createLogger } from '../logger.ts';
import { openDatabase } from '../server.ts';
import { createPool } from './client.ts';
import { runMigrations } from './migrate.ts';

const config = loadProcessConfig(brokerNames());
const log = createLogger(config.LOG_LEVEL);
const database = await openDatabase(config, log);
const pool = createPool(database.url, 2);
try {
  await runMigrations(pool);
  log.info('migrations applied');
} finally {
  await pool.end();
  await database.stop();
}
