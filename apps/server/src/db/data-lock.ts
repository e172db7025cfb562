// One server per DATA_DIR. The lock is a listening socket named after the folder: the kernel
// releases it the instant its process dies, however it dies (SIGKILL included, zombie or not), so
// a restart right after a crash is never refused and no pid is ever guessed at.
// Linux: an abstract socket (no file, bind is atomic). Windows: a named pipe. Other systems: a
// socket file in the temporary folder, taken over when nothing answers on it.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export class DataDirLockedError extends Error {
  override readonly name = 'DataDirLockedError';
}

/** The lock's socket address for a data folder (its real path, hashed). */
export function lockAddress(dataDir: string): string {
  const id = createHash('sha256').update(fs.realpathSync(dataDir)).digest('hex').slice(0, 32);
  if (process.platform === 'linux') return `\0signal-router-${id}`;
  if (process.platform === 'win32') return `\\\\.\\pipe\\signal-router-${id}`;
  return path.join(os.tmpdir(), `signal-router-${id}.sock`);
}

function listen(address: string): Promise<net.Server> {
  return new Promise((resolve, reject) => {
    // The holder tells a contender its pid, for the error message.
    const server = net.createServer((socket) => socket.end(String(process.pid)));
    server.once('error', reject);
    server.listen({ path: address, exclusive: true }, () => {
      server.off('error', reject);
      server.unref();
      resolve(server);
    });
  });
}

/** Connects to a held lock: the holder's pid, or null when nobody answers (a stale socket file). */
function holderOf(address: string): Promise<string | null> {
  return new Promise((resolve) => {
    let answer = '';
    const socket = net.connect({ path: address });
    socket.setTimeout(1_000, () => socket.destroy());
    socket.on('data', (chunk) => {
      answer += String(chunk);
    });
    socket.on('end', () => resolve(answer.trim() || '?'));
    socket.on('error', () => resolve(null));
    socket.on('close', () => resolve(answer.trim() || null));
  });
}

/** Takes the lock or throws DataDirLockedError at once; resolves to the release function. */
export async function lockDataDir(dataDir: string): Promise<() => void> {
  fs.mkdirSync(dataDir, { recursive: true });
  const address = lockAddress(dataDir);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const server = await listen(address);
      return () => server.close();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
      const holder = await holderOf(address);
      if (holder !== null) {
        throw new DataDirLockedError(
          `DATA_DIR ${dataDir} is in use by another server (pid ${holder}). Stop it first, or set DATA_DIR to another folder.`,
        );
      }
      // Only a socket file can outlive its process (not Linux, not Windows): nobody listens on it.
      if (address.startsWith(path.sep)) fs.rmSync(address, { force: true });
    }
  }
  throw new DataDirLockedError(`DATA_DIR ${dataDir}: could not take the lock ${address}`);
}
