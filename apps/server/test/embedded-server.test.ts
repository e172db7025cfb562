// The embedded-PostgreSQL path as a user runs it: first start, a second server on the same
// DATA_DIR, a hard kill during writes, a restart right after SIGKILL, graceful shutdown.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { embeddedDatabaseUrl, embeddedUrl, LEGACY_PASSWORD } from '../src/db/embedded-access.ts';
import { isProcessAlive, readPostmaster } from '../src/db/postmaster.ts';
import { postmasterPid, spawnServer, waitReady } from './server-process.ts';

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

/** Inodes of the TCP sockets listening on this machine (/proc/net/tcp and tcp6, state 0A). */
function tcpListenInodes(): Set<string> {
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    if (!fs.existsSync(table)) continue;
    for (const line of fs.readFileSync(table, 'utf8').split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields[3] === '0A' && fields[9]) inodes.add(fields[9]);
    }
  }
  return inodes;
}

/** The TCP sockets a process listens on (its fds that are listening TCP sockets). */
function tcpListenersOf(pid: number): number {
  const listening = tcpListenInodes();
  let count = 0;
  for (const fd of fs.readdirSync(`/proc/${pid}/fd`)) {
    const target = fs.readlinkSync(`/proc/${pid}/fd/${fd}`, { encoding: 'utf8' });
    const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
    if (inode && listening.has(inode)) count++;
  }
  return count;
}

afterAll(() => {
  const pid = postmasterPid(dataDir);
  if (pid && isProcessAlive(pid)) process.kill(pid, 'SIGINT');
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('embedded PostgreSQL server', { timeout: 180_000 }, () => {
  it('initializes closed to the network, refuses a second server, survives SIGKILL, restarts at once, stops cleanly', async () => {
    const port = await freePort();
    const first = spawnServer({ DATA_DIR: dataDir, PORT: String(port) });
    await waitReady(first, port);
    expect(fs.existsSync(path.join(dataDir, 'pg/PG_VERSION'))).toBe(true);

    // Only the Unix socket in the data folder: no TCP listener, a generated password (0600).
    const postmaster = readPostmaster(path.join(dataDir, 'pg'));
    expect(postmaster?.socketDir).toBe(path.join(dataDir, 'pg'));
    if (process.platform === 'linux') expect(tcpListenersOf(postmaster?.pid ?? 0)).toBe(0);
    expect(fs.statSync(path.join(dataDir, 'postgres.password')).mode & 0o777).toBe(0o600);
    const legacy = new pg.Client({ connectionString: embeddedUrl(postmaster?.socketDir ?? '', LEGACY_PASSWORD) });
    await expect(legacy.connect()).rejects.toMatchObject({ code: '28P01' });

    // No deprecation warning at start, nor when GraphQL (loaded with its first request) loads.
    const graphql = await fetch(`http://127.0.0.1:${port}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ health }' }),
    });
    expect(graphql.status).toBe(200);
    expect(first.output()).not.toMatch(/Deprecation|FSTDEP|\(node:\d+\) \[/);

    // A second server on the same DATA_DIR fails at once, with a clear message.
    const second = spawnServer({ DATA_DIR: dataDir, PORT: String(await freePort()) });
    expect(await second.exited).not.toBe(0);
    expect(second.output()).toMatch(/in use by another server \(pid \d+\)/);
    // It stopped at the lock: it never got as far as starting a database of its own.
    expect(second.output()).not.toMatch(/PostgreSQL|migrat/i);
    expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);

    // Committed rows survive a hard kill of the server and of its PostgreSQL.
    const client = new pg.Client({ connectionString: embeddedDatabaseUrl(dataDir) });
    client.on('error', () => {}); // the connection dies with the kill below
    await client.connect();
    const { rows: settings } = await client.query<{ listen_addresses: string }>('show listen_addresses');
    expect(settings[0]?.listen_addresses).toBe('');
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
    const check = new pg.Client({ connectionString: embeddedDatabaseUrl(dataDir) });
    await check.connect();
    const { rows } = await check.query<{ count: string }>('select count(*) from durability');
    await check.end();
    expect(Number(rows[0]?.count)).toBeGreaterThanOrEqual(committed);

    // SIGKILL of the server alone (its PostgreSQL lives on), and a new server started at once:
    // the lock died with the process, the orphaned PostgreSQL is stopped and replaced.
    // Nothing is awaited between the two: the new one starts while the old one may not even be
    // reaped yet.
    const port3 = await freePort();
    restarted.child.kill('SIGKILL');
    const third = spawnServer({ DATA_DIR: dataDir, PORT: String(port3) });
    await waitReady(third, port3);
    expect(third.output()).not.toMatch(/in use by another server/);

    // SIGTERM: in-flight work finishes, PostgreSQL stops, the lock is released.
    third.child.kill('SIGTERM');
    expect(await third.exited).toBe(0);
    expect(postmasterPid(dataDir)).toBeNull();
  });
});
