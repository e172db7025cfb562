// An in-process server on a fresh test database, for integration tests (app.inject or real HTTP).
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { createBrokers } from '../src/brokers.ts';
import { type Config, loadConfig } from '../src/config.ts';
import { buildApp } from '../src/http/app.ts';
import { authenticate } from '../src/modules/auth/authenticate.ts';
import type { Services } from '../src/services.ts';
import { createTestDatabase, type TestDatabase } from './postgres.ts';

export interface TestApp {
  app: FastifyInstance;
  services: Services;
  database: TestDatabase;
  close(): Promise<void>;
}

export function testConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig(
    { LOG_LEVEL: 'silent', PORT: '0', DATA_DIR: path.join(os.tmpdir(), 'router-test-data'), ...overrides },
    ['paper'],
  );
}

export async function startTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const database = await createTestDatabase();
  const config = testConfig({ DATABASE_URL: database.url, ...env });
  const services: Services = {
    config,
    db: database.db,
    log: pino({ level: 'silent' }),
    brokers: createBrokers(config),
    secretsKey: Buffer.alloc(32, 7),
  };
  const app = await buildApp(services, { authenticate, webApp: false });
  await app.ready();
  return {
    app,
    services,
    database,
    async close() {
      await app.close();
      await database.drop();
    },
  };
}
