// The real server as a child process (`node src/main.ts`) on a fresh DATA_DIR, for the fault
// drills and the benchmark: start, hard kill, restart on the same folder, and SQL access to its
// database (the embedded PostgreSQL's socket from postmaster.pid, else DATABASE_URL).
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { embeddedDatabaseUrl } from '../../src/db/embedded-access.ts';
import { postmasterPid, type ServerProcess, spawnServer, waitReady } from '../server-process.ts';

export interface LiveServer {
  url: string;
  port: number;
  dataDir: string;
  /** The environment it was started with (DATA_DIR and PORT aside). */
  env: Record<string, string>;
  process: ServerProcess;
  pid: number;
  /** A pg pool on the server's database (created on first use). */
  sql(): pg.Pool;
  /** SIGKILL, no shutdown at all (the embedded PostgreSQL lives on, orphaned). */
  kill(): Promise<void>;
  /** SIGTERM and wait for the exit. */
  stop(): Promise<void>;
  /** Starts a new server on the same DATA_DIR and environment (after kill or stop). */
  restart(extraEnv?: Record<string, string>): Promise<LiveServer>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export function freshDataDir(prefix = 'router-faults-'): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  fs.chmodSync(dir, 0o755); // the embedded PostgreSQL runs as another user under root
  return dir;
}

/** The environment every drill and the benchmark share: no limits in the way, timings on. */
export const BASE_ENV: Record<string, string> = {
  LOG_LEVEL: 'warn',
  HOOK_TIMINGS: 'true',
  HOOK_RATE_PER_HOOK: '0',
  HOOK_RATE_PER_ADDRESS: '0',
  PAPER_STARTING_CASH: '1000000000000',
};

export async function startLiveServer(
  env: Record<string, string> = {},
  dataDir = freshDataDir(),
  timeoutMs = 90_000,
): Promise<LiveServer> {
  const port = await freePort();
  const fullEnv: Record<string, string> = { ...BASE_ENV, DATA_DIR: dataDir, ...env, PORT: String(port) };
  const child = spawnServer(fullEnv);
  await waitReady(child, port, timeoutMs);
  let pool: pg.Pool | undefined;
  const closePool = async () => {
    const current = pool;
    pool = undefined;
    await current?.end().catch(() => {});
  };
  const live: LiveServer = {
    url: `http://127.0.0.1:${port}`,
    port,
    dataDir,
    env,
    process: child,
    pid: child.child.pid ?? 0,
    sql() {
      if (!pool) {
        const url = fullEnv.DATABASE_URL ?? embeddedDatabaseUrl(dataDir);
        pool = new pg.Pool({ connectionString: url, max: 4 });
        pool.on('error', () => {});
      }
      return pool;
    },
    async kill() {
      await closePool();
      child.child.kill('SIGKILL');
      await child.exited;
    },
    async stop() {
      await closePool();
      if (child.child.exitCode === null) child.child.kill('SIGTERM');
      await child.exited;
    },
    restart: (extraEnv = {}) => startLiveServer({ ...env, ...extraEnv }, dataDir, timeoutMs),
  };
  return live;
}

/** Removes a drill's DATA_DIR, stopping an orphaned embedded PostgreSQL first. */
export async function removeDataDir(dataDir: string): Promise<void> {
  const pid = postmasterPid(dataDir);
  if (pid) {
    try {
      process.kill(pid, 'SIGINT');
      for (let i = 0; i < 100; i++) {
        process.kill(pid, 0);
        await new Promise((r) => setTimeout(r, 100));
      }
    } catch {
      // gone
    }
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
}
