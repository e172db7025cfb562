// A read refused by a broker's rate limit is asked once more after a pause, within the caller's
// deadline; an order never is (a resent order could be a second order). The pause is the one the
// broker asks for (Retry-After), within a cap: asking sooner only lengthens a penalty (IBKR's
// penalty box), and a longer wait than the cap is not worth holding the caller for.
import type { BrokerContext } from './broker.ts';
import { isBrokerError } from './errors.ts';
import { parseRetryAfter } from './http-errors.ts';

/** How long a read waits before its one retry after a rate-limit answer that says no Retry-After. */
export const READ_RETRY_WAIT_MS = 1_000;
/** The longest Retry-After a read waits for; beyond it the rate limit is the answer. */
export const READ_RETRY_MAX_WAIT_MS = 5_000;

/**
 * How long to wait before the retry: the broker's Retry-After (seconds, or an HTTP date, RFC 9110
 * §10.2.3), else `fallbackMs`; undefined when that is beyond the cap (no retry then).
 */
export function readRetryWaitMs(
  retryAfter: string | null | undefined,
  now: number,
  fallbackMs = READ_RETRY_WAIT_MS,
): number | undefined {
  const said = parseRetryAfter(retryAfter);
  const waitMs = !said ? fallbackMs : 'seconds' in said ? said.seconds * 1_000 : Math.max(0, said.at - now);
  return waitMs <= READ_RETRY_MAX_WAIT_MS ? waitMs : undefined;
}

/** Resolves after `ms`; rejects when `signal` aborts first. */
export function pauseFor(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const abort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', abort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', abort, { once: true });
  });
}

/**
 * Runs `send`; a read answered RateLimited runs once more after the broker's Retry-After (else
 * `waitMs`), unless that is beyond the cap or the deadline comes first.
 */
export async function retryReadAfterRateLimit<T>(
  ctx: BrokerContext,
  kind: 'read' | 'order',
  send: () => Promise<T>,
  waitMs = READ_RETRY_WAIT_MS,
): Promise<T> {
  try {
    return await send();
  } catch (error) {
    if (kind === 'order' || !isBrokerError(error) || error.kind !== 'RateLimited') throw error;
    const wait = readRetryWaitMs(error.retryAfter, (ctx.now ?? Date.now)(), waitMs);
    if (wait === undefined) throw error;
    try {
      await pauseFor(wait, ctx.signal);
    } catch {
      throw error;
    }
    return send();
  }
}
