// Browser journeys run against the real server, started as `npm start` starts it (embedded
// PostgreSQL in a fresh DATA_DIR, the built web app), with mail written to the log.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { serverNodeArgs } from '../apps/server/src/node-args.ts';
import { startSchwabFake } from '../packages/brokers/src/adapters/schwab/fake.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    serverLogFile: string;
    /** The server's DATA_DIR: journeys reach its embedded PostgreSQL for what no screen does. */
    dataDir: string;
  }
}

const root = path.resolve(import.meta.dirname, '..');

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

export default async function setup(project: TestProject) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'router-e2e-'));
  fs.chmodSync(dataDir, 0o755);
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const logFile = path.join(dataDir, 'server.log');
  // Schwab's protocol fake on loopback, for the OAuth popup journey (e2e/connectors.test.ts).
  const schwab = await startSchwabFake({ clientId: 'e2e-schwab-app', clientSecret: 'e2e-schwab-secret' });
  const log = fs.openSync(logFile, 'a');
  const child = spawn(process.execPath, [...serverNodeArgs(), path.join(root, 'apps/server/src/main.ts')], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: baseUrl,
      LOG_LEVEL: 'info',
      SCHWAB_BASE_URL: schwab.baseUrl,
      SCHWAB_CLIENT_ID: 'e2e-schwab-app',
      SCHWAB_CLIENT_SECRET: 'e2e-schwab-secret',
      SUPPORT_EMAIL: 'support@e2e.example',
      // Notification webhooks to a receiver on loopback (e2e/notifications.test.ts).
      ALLOW_PRIVATE_WEBHOOKS: 'true',
      ...(process.env.E2E_ENV ? JSON.parse(process.env.E2E_ENV) : {}),
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
  project.provide('baseUrl', baseUrl);
  project.provide('serverLogFile', logFile);
  project.provide('dataDir', dataDir);
  return async () => {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    await schwab.close();
    fs.closeSync(log);
    // Kept for a failed journey's post-mortem: the last run's server log.
    fs.copyFileSync(logFile, path.join(os.tmpdir(), 'router-e2e-server.log'));
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
}
