// Robinhood allows 100 requests a minute per account, in bursts of up to 300 (WIRE.md §9, a token
// bucket at Robinhood's end). We keep the same bucket per API key, so a burst of signals waits a
// moment for its turn instead of meeting a 429; when the wait would pass the caller's deadline or
// a second, nothing is sent and the signal is answered RateLimited.
import { setTimeout as sleep } from 'node:timers/promises';
import { BrokerError } from '../../core/errors.ts';
import { ROBINHOOD_TITLE } from './descriptor.ts';

export const RATE_LIMIT = { perMinute: 100, burst: 300 } as const;
/** The longest a request waits for its turn. */
const MAX_WAIT_MS = 1_000;

/** A rate limit; with `waitMs`, the wait until the bucket has a turn again, as its Retry-After (seconds). */
export const rateLimited = (detail: string, waitMs?: number) =>
  new BrokerError(
    'RateLimited',
    ROBINHOOD_TITLE,
    `rate limit reached (${RATE_LIMIT.perMinute} requests a minute, bursts of ${RATE_LIMIT.burst}); ${detail}`,
    waitMs !== undefined ? { retryAfter: String(Math.max(1, Math.ceil(waitMs / 1000))) } : {},
  );

export interface RateLimiter {
  /** Takes one request's turn for this key, waiting briefly when the bucket is empty. */
  take(key: string, now: number, signal?: AbortSignal): Promise<void>;
}

export function createRateLimiter(): RateLimiter {
  const perMs = RATE_LIMIT.perMinute / 60_000;
  const buckets = new Map<string, { tokens: number; at: number }>();
  return {
    async take(key, now, signal) {
      const bucket = buckets.get(key) ?? { tokens: RATE_LIMIT.burst, at: now };
      bucket.tokens = Math.min(RATE_LIMIT.burst, bucket.tokens + Math.max(0, now - bucket.at) * perMs);
      bucket.at = now;
      buckets.set(key, bucket);
      const waitMs = bucket.tokens >= 1 ? 0 : (1 - bucket.tokens) / perMs;
      if (waitMs > MAX_WAIT_MS) throw rateLimited('nothing was sent, try again in a minute', waitMs);
      bucket.tokens -= 1;
      if (waitMs === 0) return;
      try {
        await sleep(waitMs, undefined, signal ? { signal } : {});
      } catch {
        bucket.tokens += 1;
        throw rateLimited('nothing was sent before the deadline');
      }
    },
  };
}
