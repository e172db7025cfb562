// An in-process server on a fresh test database, for integration tests (app.inject or real HTTP).
import os from 'node:os';
import path from 'node:path';
import type { Broker } from '@router/brokers';
import type { FastifyInstance } from 'fastify';
import pino, { type Logger } from 'pino';
import { brokerNames, createBrokers } from '../src/brokers.ts';
import { type Config, loadConfig } from '../src/config.ts';
import type { Authenticate } from '../src/graphql/yoga.ts';
import { buildApp } from '../src/http/app.ts';
import { authenticate } from '../src/modules/auth/authenticate.ts';
import { createIdentity } from '../src/modules/auth/runtime.ts';
import { ServerCounters } from '../src/modules/metrics/counters.ts';
import type { WorkerOptions } from '../src/modules/notifications/worker.ts';
import type { Services } from '../src/services.ts';
import { createTestDatabase, type TestDatabase } from './postgres.ts';

export interface TestApp {
  app: FastifyInstance;
  services: Services;
  database: TestDatabase;
  close(): Promise<void>;
}

export function testConfig(overrides: Record<string, string> = {}, brokerNames: string[] = ['paper']): Config {
  return loadConfig(
    { LOG_LEVEL: 'silent', PORT: '0', DATA_DIR: path.join(os.tmpdir(), 'router-test-data'), ...overrides },
    brokerNames,
  );
}

export interface TestAppOptions {
  env?: Record<string, string>;
  /** Replaces the real authentication (e.g. a Bearer naming a user id) in tests of other domains. */
  authenticate?: Authenticate;
  /** Brokers registered after the built-in ones (e.g. a fake OAuth provider). */
  brokers?: readonly Broker[];
  /** The server's logger (default: silent). */
  log?: Logger;
  /** Serves a built web app from this folder (none by default). */
  webDist?: string;
  /** Notification worker options (short timeouts, a resolver). */
  notifications?: WorkerOptions;
  /** Another app on the same database (a second server instance). */
  database?: TestDatabase;
  /** The clock in-memory allowances refill by (stoppedClock(): a test of a limit races no refill). */
  now?: () => number;
}

/** A clock that never moves: an allowance spent in a test stays spent however slow the machine. */
export function stoppedClock(): () => number {
  const at = Date.now();
  return () => at;
}

export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const env = options.env ?? {};
  const shared = options.database;
  const database = shared ?? (await createTestDatabase({ unmeteredCredits: env.SIGNAL_CREDITS === 'unlimited' }));
  const extraNames = (options.brokers ?? []).map((broker) => broker.descriptor.name);
  // Every registered broker may be configured (`ALPACA_BASE_URL` pointing at its protocol fake).
  const config = testConfig({ DATABASE_URL: database.url, ...env }, [...brokerNames(), ...extraNames]);
  const log = options.log ?? pino({ level: 'silent' });
  const services: Services = {
    config,
    db: database.db,
    log,
    brokers: createBrokers(config, database.db, options.brokers),
    secretsKey: Buffer.alloc(32, 7),
    identity: createIdentity(config, log, database.db.$client, options.now),
    counters: new ServerCounters(),
  };
  const app = await buildApp(services, {
    authenticate: options.authenticate ?? authenticate,
    webApp: options.webDist !== undefined,
    ...(options.webDist ? { webDist: options.webDist } : {}),
    notifications: options.notifications,
  });
  await app.ready();
  return {
    app,
    services,
    database,
    async close() {
      await app.close();
      await services.identity.settled();
      if (!shared) await database.drop();
    },
  };
}

/**
 * Test-only authentication: `Authorization: Bearer as-user-<id>` is user <id> with the group of
 * its row. For tests of domains that do not test sign-in itself.
 */
export const authenticateAsUserId: Authenticate = async (services, _req, bearer) => {
  const match = /^as-user-(\d+)$/.exec(bearer ?? '');
  if (!match) return null;
  const userId = Number(match[1]);
  const { rows } = await services.db.$client.query<{ key: string; group: number }>(
    'select key, "group" from users where id = $1',
    [userId],
  );
  const row = rows[0];
  return row ? { userId, userKey: row.key, group: row.group, sessionId: 0 } : null;
};

/** Inserts a confirmed customer; returns its id and the Bearer header for authenticateAsUserId. */
export async function insertTestUser(services: Services, email: string, group = 4) {
  const { rows } = await services.db.$client.query<{ id: string }>(
    `insert into users (key, email, "group", email_confirmed_at) values ($1, $2, $3, now()) returning id`,
    [`u_${email}`, email, group],
  );
  const id = Number(rows[0]?.id);
  return { id, headers: { authorization: `Bearer as-user-${id}` } };
}
