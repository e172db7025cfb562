// A read refused by a broker's rate limit is asked once more after a pause, within the caller's
// deadline; an order never is (a resent order could be a second order).
import { setTimeout as sleep } from 'node:timers/promises';
import type { BrokerContext } from './broker.ts';
import { isBrokerError } from './errors.ts';

/** How long a read waits before its one retry after a rate-limit answer. */
export const READ_RETRY_WAIT_MS = 1_000;

/** Runs `send`; a read answered RateLimited runs once more after `waitMs`, unless the deadline comes first. */
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
    try {
      await sleep(waitMs, undefined, ctx.signal ? { signal: ctx.signal } : {});
    } catch {
      throw error;
    }
    return send();
  }
}
