// Who may reach the embedded PostgreSQL, and how: only its Unix socket (no TCP listener), only
// with the password generated once into DATA_DIR/postgres.password (mode 0600).
import { createHash, createHmac, pbkdf2Sync, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readPostmaster } from './postmaster.ts';

export const EMBEDDED_USER = 'router';
/** What data folders made before the password file had (and what a new cluster starts with). */
export const LEGACY_PASSWORD = 'router';
/** With no TCP listener the port only names the socket file (.s.PGSQL.5432). */
export const EMBEDDED_PORT = 5432;

export function passwordFile(dataDir: string): string {
  return path.join(dataDir, 'postgres.password');
}

/** The password, generated on first use (`created`: by this call). */
export function ensurePasswordFile(dataDir: string): { password: string; created: boolean } {
  const file = passwordFile(dataDir);
  try {
    return { password: fs.readFileSync(file, 'utf8').trim(), created: false };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const password = randomBytes(32).toString('base64url');
  fs.writeFileSync(file, `${password}\n`, { mode: 0o600, flag: 'wx' });
  return { password, created: true };
}

export function embeddedPassword(dataDir: string): string {
  return ensurePasswordFile(dataDir).password;
}

/** pg_hba.conf: password (SCRAM) logins over the Unix socket, nothing else. */
export const PG_HBA =
  '# Written by the server at every start: Unix socket only, SCRAM passwords.\nlocal all all scram-sha-256\n';

/**
 * A socket address (directory + /.s.PGSQL.5432.lock) must fit in ~107 bytes, and
 * unix_socket_directories cannot take some characters unquoted. Such data folders get a short
 * directory in the temporary folder (random name, ours alone) holding a symlink to the real one.
 */
export function needsShortSocketDir(pgDir: string): boolean {
  if (/[,"'\s\\]/.test(pgDir)) return true;
  return Buffer.byteLength(path.join(pgDir, `.s.PGSQL.${EMBEDDED_PORT}.lock`)) >= 100;
}

const SHORT_PREFIX = 'router-pg-';

function shortRoot(): string {
  const tmp = os.tmpdir();
  return Buffer.byteLength(tmp) <= 40 && !needsShortSocketDir(tmp) ? tmp : '/tmp';
}

/** Removes short socket directories that earlier servers left pointing at `pgDir` (after a kill). */
function removeStaleShortDirs(pgDir: string): void {
  const root = shortRoot();
  for (const name of fs.readdirSync(root)) {
    if (!name.startsWith(SHORT_PREFIX)) continue;
    const link = path.join(root, name, 's');
    try {
      if (fs.readlinkSync(link) === pgDir) fs.rmSync(path.join(root, name), { recursive: true, force: true });
    } catch {
      // not ours, or already gone
    }
  }
}

/** The socket directory for `pgDir`, and how to remove it when the database stops. */
export function socketDirectory(pgDir: string): { dir: string; remove(): void } {
  if (!needsShortSocketDir(pgDir)) return { dir: pgDir, remove: () => {} };
  removeStaleShortDirs(pgDir);
  const holder = fs.mkdtempSync(path.join(shortRoot(), SHORT_PREFIX));
  // The database's own user (under root: 'postgres') goes through it to the real folder.
  fs.chmodSync(holder, 0o755);
  const dir = path.join(holder, 's');
  fs.symlinkSync(pgDir, dir);
  return { dir, remove: () => fs.rmSync(holder, { recursive: true, force: true }) };
}

export function embeddedUrl(socketDir: string, password: string): string {
  return `postgres://${EMBEDDED_USER}:${encodeURIComponent(password)}@localhost:${EMBEDDED_PORT}/postgres?host=${encodeURIComponent(socketDir)}`;
}

/** The running embedded PostgreSQL's URL, for tools and tests beside the server. */
export function embeddedDatabaseUrl(dataDir: string): string {
  const postmaster = readPostmaster(path.join(dataDir, 'pg'));
  if (!postmaster?.socketDir) throw new Error(`no embedded PostgreSQL runs in ${dataDir}`);
  return embeddedUrl(postmaster.socketDir, embeddedPassword(dataDir));
}

/**
 * A SCRAM-SHA-256 verifier (RFC 5802/7677, PostgreSQL's stored form), so that ALTER ROLE never
 * carries the password itself.
 */
export function scramVerifier(password: string, iterations = 4096): string {
  const salt = randomBytes(16);
  const salted = pbkdf2Sync(password, salt, iterations, 32, 'sha256');
  const clientKey = createHmac('sha256', salted).update('Client Key').digest();
  const storedKey = createHash('sha256').update(clientKey).digest();
  const serverKey = createHmac('sha256', salted).update('Server Key').digest();
  return `SCRAM-SHA-256$${iterations}:${salt.toString('base64')}$${storedKey.toString('base64')}:${serverKey.toString('base64')}`;
}
