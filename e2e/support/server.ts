// The real server as `npm start` runs it (embedded PostgreSQL in a fresh DATA_DIR, the built web
// app, mail written to the log), for the journeys: the one global-setup.ts starts for every file,
// and any other a file needs (e.g. one with card payments). `targetServer` points the helpers of
// this folder (users, signals, mail, pages) at the server a file uses.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import { serverNodeArgs } from '../../apps/server/src/node-args.ts';

const root = path.resolve(import.meta.dirname, '../..');

export interface E2eServer {
  baseUrl: string;
  logFile: string;
  dataDir: string;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** Starts a server with `env` added and waits until it is ready; `name` tells its kept log apart. */
export async function startE2eServer(env: Record<string, string>, name = ''): Promise<E2eServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'router-e2e-'));
  fs.chmodSync(dataDir, 0o755);
  const listen = await freePort();
  const baseUrl = `http://127.0.0.1:${listen}`;
  const logFile = path.join(dataDir, 'server.log');
  const log = fs.openSync(logFile, 'a');
  const child = spawn(process.execPath, [...serverNodeArgs(), path.join(root, 'apps/server/src/main.ts')], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      DATA_DIR: dataDir,
      PORT: String(listen),
      HOST: '127.0.0.1',
      PUBLIC_URL: baseUrl,
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', log, log],
  });
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited:\n${fs.readFileSync(logFile, 'utf8')}`);
    if (Date.now() > deadline) throw new Error(`server not ready:\n${fs.readFileSync(logFile, 'utf8')}`);
    const ready = await fetch(`${baseUrl}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    baseUrl,
    logFile,
    dataDir,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      fs.closeSync(log);
      // Kept for a failed journey's post-mortem: the last run's server log.
      fs.copyFileSync(logFile, path.join(os.tmpdir(), `router-e2e-server${name ? `-${name}` : ''}.log`));
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

let target: Pick<E2eServer, 'baseUrl' | 'logFile'> | undefined;

/** From now on in this test file, the helpers talk to `server` instead of the global one. */
export function targetServer(server: Pick<E2eServer, 'baseUrl' | 'logFile'>): void {
  target = server;
}

export const serverUrl = (): string => target?.baseUrl ?? inject('baseUrl');
export const serverLogFile = (): string => target?.logFile ?? inject('serverLogFile');
