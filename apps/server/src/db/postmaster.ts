// The embedded PostgreSQL's postmaster.pid: who runs the data folder, on which port and socket
// directory, and stopping one that a killed server left running.
import fs from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';

export interface Postmaster {
  pid: number;
  port: number;
  /** The first Unix socket directory (empty when none). */
  socketDir: string;
}

/**
 * postmaster.pid, one value a line: pid, data directory, start time, port, socket directory,
 * listen address, shared memory key, status.
 */
export function readPostmaster(pgDir: string): Postmaster | null {
  let text: string;
  try {
    text = fs.readFileSync(path.join(pgDir, 'postmaster.pid'), 'utf8');
  } catch {
    return null;
  }
  const lines = text.split('\n');
  const pid = Number.parseInt(lines[0] ?? '', 10);
  if (!Number.isInteger(pid)) return null;
  return { pid, port: Number.parseInt(lines[3] ?? '', 10), socketDir: lines[4]?.trim() ?? '' };
}

/** Whether `pid` runs. A zombie (dead, not yet reaped by its parent) does not. */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  if (process.platform !== 'linux') return true;
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

/** On Linux, a pid in an old postmaster.pid may since belong to another program: never signal it. */
function isPostgres(pid: number): boolean {
  if (process.platform !== 'linux') return true;
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('postgres');
  } catch {
    return false;
  }
}

/**
 * A postmaster that died with a hard kill but is not yet reaped by its parent (a zombie) still
 * passes PostgreSQL's own `kill(pid, 0)` test, which would refuse to start; it is dead, so its
 * lock files go. (PostgreSQL still refuses while any old backend is attached to its memory.)
 */
function removeDeadLocks(pgDir: string, owner: Postmaster): void {
  fs.rmSync(path.join(pgDir, 'postmaster.pid'), { force: true });
  if (owner.socketDir) fs.rmSync(path.join(owner.socketDir, `.s.PGSQL.${owner.port}.lock`), { force: true });
}

/**
 * After a hard kill of the server its PostgreSQL lives on, holding the data folder: stop it cleanly
 * (fast shutdown: committed rows are kept) before a new one starts.
 */
export async function stopOrphan(pgDir: string, log: Logger): Promise<void> {
  const owner = readPostmaster(pgDir);
  if (!owner) return;
  if (!isProcessAlive(owner.pid)) return removeDeadLocks(pgDir, owner);
  if (!isPostgres(owner.pid)) return;
  log.warn({ pid: owner.pid }, 'stopping the PostgreSQL left running by a previous server');
  process.kill(owner.pid, 'SIGINT');
  for (let waited = 0; waited < 30_000; waited += 20) {
    if (readPostmaster(pgDir)?.pid !== owner.pid) return;
    if (!isProcessAlive(owner.pid)) return removeDeadLocks(pgDir, owner);
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`PostgreSQL (pid ${owner.pid}) in ${pgDir} did not stop`);
}
