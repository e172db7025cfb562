// SPEC §9's strength estimate (zxcvbn guesses_log10), computed in a worker thread started on the
// first estimate and ended after 10 quiet seconds (longer than a pause while typing in the
// sign-up form, which asks as the password is typed), so neither its CPU (~0.4 s to build the
// dictionaries) nor its memory (~35 MB of dictionaries, ~50 MB with the thread) stays on the
// process that answers the hooks: before, the first estimate after a start stalled every hook
// for ~0.4 s and the dictionaries stayed for the life of the process.
import { Worker } from 'node:worker_threads';

const IDLE_MS = 10_000;

interface Pending {
  resolve(guessesLog10: number): void;
  reject(error: unknown): void;
}

let worker: Worker | undefined;
let idle: NodeJS.Timeout | undefined;
let sequence = 0;
const pending = new Map<number, Pending>();

function failAll(error: unknown): void {
  for (const waiting of pending.values()) waiting.reject(error);
  pending.clear();
}

function start(): Worker {
  const started = new Worker(new URL('./password-strength-worker.ts', import.meta.url), {
    // Its garbage is short-lived: a small young generation keeps the thread's footprint small.
    resourceLimits: { maxYoungGenerationSizeMb: 8 },
  });
  started.on('message', ({ id, guessesLog10 }: { id: number; guessesLog10: number }) => {
    pending.get(id)?.resolve(guessesLog10);
    pending.delete(id);
    if (pending.size === 0) idleAfter(started);
  });
  // Only the current worker's end fails what waits: one ended for idleness had nothing waiting,
  // and what was asked since went to its successor.
  started.on('error', (error) => {
    if (worker === started) failAll(error);
  });
  started.on('exit', (code) => {
    if (worker !== started) return;
    worker = undefined;
    failAll(new Error(`password strength worker exited (${code})`));
  });
  // Never what keeps the process alive.
  started.unref();
  return started;
}

function idleAfter(current: Worker): void {
  clearTimeout(idle);
  idle = setTimeout(() => {
    if (worker === current && pending.size === 0) {
      worker = undefined;
      void current.terminate();
    }
  }, IDLE_MS);
  idle.unref();
}

/** zxcvbn guesses_log10 (SPEC §9: 0 to about 10+; a password must exceed 10). */
export function estimatePassword(password: string): Promise<number> {
  if (!password) return Promise.resolve(0);
  clearTimeout(idle);
  worker ??= start();
  const id = ++sequence;
  const current = worker;
  return new Promise<number>((resolve, reject) => {
    pending.set(id, { resolve, reject });
    current.postMessage({ id, password });
  });
}
