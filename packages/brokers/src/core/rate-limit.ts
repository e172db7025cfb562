// A read refused with 429 may be asked again: it changes nothing at the broker. An order never
// is (core/http.ts does not retry; a resent order could be a second one), and the caller reports
// the refusal. One more try after `waitMs`, within the caller's deadline.
import { setTimeout as sleep } from 'node:timers/promises';
import type { BrokerContext } from './broker.ts';
import { BrokerError, isBrokerError } from './errors.ts';

export async function retryReadOnRateLimit<T>(
  ctx: BrokerContext,
  title: string,
  kind: 'read' | 'order',
  send: () => Promise<T>,
  waitMs = 1_000,
): Promise<T> {
  try {
    return await send();
  } catch (error) {
    if (kind === 'order' || !isBrokerError(error) || error.kind !== 'RateLimited') throw error;
    await sleep(waitMs, undefined, ctx.signal ? { signal: ctx.signal } : {}).catch(() => {
      throw new BrokerError('RateLimited', title, 'rate limit reached; no answer before the deadline');
    });
    return send();
  }
}
