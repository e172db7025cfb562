// The embedded-PostgreSQL path as a user runs it: first start, restart, a second server on the
// same DATA_DIR, a hard kill during writes, graceful shutdown.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { isProcessAlive } from '../src/db/data-lock.ts';
import { embeddedPort, postmasterPid, spawnServer, waitReady } from './server-process.ts';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'router-embedded-'));
fs.chmodSync(dataDir, 0o755);

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

afterAll(() => {
  const pid = postmasterPid(dataDir);
  if (pid && isProcessAlive(pid)) process.kill(pid, 'SIGINT');
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('embedded PostgreSQL server', { timeout: 180_000 }, () => {
  it('initializes on first start, refuses a second server, survives SIGKILL, stops cleanly', async () => {
    const port = await freePort();
    const first = spawnServer({ DATA_DIR: dataDir, PORT: String(port) });
    await waitReady(first, port);
    expect(fs.existsSync(path.join(dataDir, 'pg/PG_VERSION'))).toBe(true);
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);

    // A second server on the same DATA_DIR fails at once, with a clear message.
    const second = spawnServer({ DATA_DIR: dataDir, PORT: String(await freePort()) });
    expect(await second.exited).not.toBe(0);
    expect(second.output()).toMatch(/in use by another server/);
    // It stopped at the lock: it never got as far as starting a database of its own.
    expect(second.output()).not.toMatch(/PostgreSQL|migrat/i);
    expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);

    // Committed rows survive a hard kill of the server and of its PostgreSQL.
    const client = new pg.Client({
      connectionString: `postgres://router:router@127.0.0.1:${embeddedPort(dataDir)}/postgres`,
    });
    client.on('error', () => {}); // the connection dies with the kill below
    await client.connect();
    // The server's own connections come over the Unix socket in the data folder (no client address).
    expect(fs.existsSync(path.join(dataDir, `pg/.s.PGSQL.${embeddedPort(dataDir)}`))).toBe(true);
    const { rows: overSocket } = await client.query<{ n: string }>(
      `select count(*) as n from pg_stat_activity
       where backend_type = 'client backend' and client_addr is null and pid <> pg_backend_pid()`,
    );
    expect(Number(overSocket[0]?.n)).toBeGreaterThan(0);
    await client.query('create table if not exists durability (n int primary key)');
    let committed = 0;
    const writes = (async () => {
      for (let n = 1; n <= 100_000; n++) {
        try {
          await client.query('insert into durability values ($1)', [n]);
          committed = n;
        } catch {
          return;
        }
      }
    })();
    await new Promise((r) => setTimeout(r, 700));
    const postgresPid = postmasterPid(dataDir);
    first.child.kill('SIGKILL');
    if (postgresPid) process.kill(postgresPid, 'SIGKILL');
    await writes;
    await client.end().catch(() => {});
    expect(committed).toBeGreaterThan(0);

    const port2 = await freePort();
    const restarted = spawnServer({ DATA_DIR: dataDir, PORT: String(port2) });
    await waitReady(restarted, port2);
    const check = new pg.Client({
      connectionString: `postgres://router:router@127.0.0.1:${embeddedPort(dataDir)}/postgres`,
    });
    await check.connect();
    const { rows } = await check.query<{ count: string }>('select count(*) from durability');
    await check.end();
    expect(Number(rows[0]?.count)).toBeGreaterThanOrEqual(committed);

    // SIGTERM: in-flight work finishes, PostgreSQL stops, the lock is released.
    restarted.child.kill('SIGTERM');
    expect(await restarted.exited).toBe(0);
    expect(postmasterPid(dataDir)).toBeNull();
    expect(fs.existsSync(path.join(dataDir, 'server.lock'))).toBe(false);
  });
});
