// Debian's PostgreSQL (scripts/ci-external-postgres.sh installs it) started by a drill in a temp
// folder on a free loopback port, so the drill can restart it under load with pg_ctl. Under root
// it runs as the postgres user, as PostgreSQL refuses root.
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './live-server.ts';

export interface ExternalPostgres {
  url: string;
  /** pg_ctl stop -m fast (sessions terminated), `downMs` without a database, pg_ctl start. */
  restart(downMs: number): Promise<void>;
  stop(): Promise<void>;
}

/** The newest /usr/lib/postgresql/<v>/bin holding pg_ctl, or undefined. */
export function postgresBin(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!fs.existsSync(root)) return undefined;
  const versions = fs
    .readdirSync(root)
    .filter((v) => fs.existsSync(path.join(root, v, 'bin/pg_ctl')))
    .sort((a, b) => Number(a) - Number(b));
  const newest = versions.at(-1);
  return newest ? path.join(root, newest, 'bin') : undefined;
}

/** Runs a PostgreSQL tool without blocking the event loop (the drill's load goes on meanwhile). */
async function run(bin: string, tool: string, args: string[]): Promise<void> {
  const asRoot = process.getuid?.() === 0;
  const [file, argv] = asRoot
    ? ['runuser', ['-u', 'postgres', '--', path.join(bin, tool), ...args]]
    : [path.join(bin, tool), args];
  await promisify(execFile)(file, argv, { timeout: 60_000 });
}

export async function startExternalPostgres(bin: string): Promise<ExternalPostgres> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'router-faults-pg-'));
  if (process.getuid?.() === 0) execFileSync('chown', ['postgres:postgres', dir]);
  const port = await freePort();
  await run(bin, 'initdb', ['-D', dir, '-U', 'postgres', '--auth=trust']);
  const options = `-p ${port} -k /tmp -c listen_addresses=127.0.0.1 -c max_connections=200`;
  const pgCtl = (...args: string[]) => run(bin, 'pg_ctl', ['-D', dir, '-o', options, '-w', ...args]);
  await pgCtl('start', '-l', path.join(dir, 'log'));
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    restart: async (downMs) => {
      await pgCtl('stop', '-m', 'fast');
      await new Promise((resolve) => setTimeout(resolve, downMs));
      await pgCtl('start', '-l', path.join(dir, 'log'));
    },
    stop: async () => {
      try {
        await pgCtl('stop', '-m', 'fast');
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
