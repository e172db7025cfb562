// Starts one PostgreSQL for the run (embedded unless TEST_DATABASE_URL names one) and builds the
// migrated template database the test files clone.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import pino from 'pino';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from '../src/db/embedded.ts';
import { runMigrations } from '../src/db/migrate.ts';
import { withDatabase } from './postgres.ts';

const TEMPLATE = 'router_template';

export default async function setup(project: TestProject) {
  const external = process.env.TEST_DATABASE_URL;
  let stop = async () => {};
  let url: string;
  if (external) {
    url = external;
  } else {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'router-test-pg-'));
    fs.chmodSync(dir, 0o755);
    const embedded = await startEmbeddedPostgres(dir, pino({ level: 'warn' }));
    url = embedded.url;
    stop = async () => {
      await embedded.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    };
  }
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${TEMPLATE} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${TEMPLATE}`);
  await admin.end();
  const pool = new pg.Pool({ connectionString: withDatabase(url, TEMPLATE) });
  await runMigrations(pool);
  await pool.end();
  project.provide('postgresUrl', url);
  project.provide('templateDatabase', TEMPLATE);
  return stop;
}
