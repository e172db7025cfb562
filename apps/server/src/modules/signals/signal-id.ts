// Signal ids: also the broker's client order id, so short (20 base62 characters fit every
// broker's limit) and unique without coordination: 8 characters of milliseconds (sortable, so
// the primary key index grows at its end) and 12 random ones (71 bits).
import { createHash, randomBytes } from 'node:crypto';
import { BASE62, BASE62_LIMIT } from '../../crypto/random.ts';

const RANDOM_LENGTH = 12;

// One system call per 4 KiB of randomness instead of one per id.
let pool = randomBytes(4096);
let offset = 0;

function randomByte(): number {
  if (offset === pool.length) {
    pool = randomBytes(4096);
    offset = 0;
  }
  return pool[offset++] as number;
}

export function newSignalId(now = Date.now()): string {
  let time = '';
  let ms = now;
  for (let i = 0; i < 8; i++) {
    time = BASE62[ms % 62] + time;
    ms = Math.floor(ms / 62);
  }
  let random = '';
  while (random.length < RANDOM_LENGTH) {
    const byte = randomByte();
    if (byte < BASE62_LIMIT) random += BASE62[byte % 62];
  }
  return time + random;
}

/**
 * The id of fan-out leg `leg` (1, 2, …) of a signal: derived, so it is known from the first's id
 * alone, and of the same shape (the first's time part, 12 base62 characters of a hash).
 */
export function legSignalId(firstId: string, leg: number): string {
  return derivedId(firstId, String(leg));
}

/**
 * The id of the signal a queued signal (queued id `queuedId`) becomes when placed: derived, so a
 * claim taken over after a crash finds the signal the lost claim stored, whatever its key's window.
 */
export function queuedSignalId(queuedId: string): string {
  return derivedId(queuedId, 'queued');
}

function derivedId(base: string, tag: string): string {
  const digest = createHash('sha256').update(`${base}#${tag}`).digest();
  let random = '';
  for (const byte of digest) {
    if (random.length === RANDOM_LENGTH) break;
    if (byte < BASE62_LIMIT) random += BASE62[byte % 62];
  }
  return base.slice(0, 8) + random;
}
