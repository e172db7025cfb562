// Webull answers at most 2 order queries per 2 s (order detail, open orders, history: WIRE.md §9,
// "order query 2 req per 2 s"), per app key. The fill follower and reconciliation look several
// orders up at once, and a placement Webull refused looks its order up: unpaced, the third query
// within 2 s was refused 429 and waited a read retry, or failed. Each order query takes the app
// key's next slot here, at once (so concurrent callers queue in order), and waits for it. The
// windows run on the machine's monotonic clock, not a broker context's (a test's fixed `now`).
import { pauseFor } from '../../core/read-retry.ts';

export const ORDER_QUERY_LIMIT = 2;
export const ORDER_QUERY_WINDOW_MS = 2_000;
/** Slots a twentieth further apart than the window (100 ms of 2 s): a query reaches Webull a little after it goes. */
const MARGIN = 1.05;

/** Webull's order queries: GETs under /openapi/trade/order/. */
export const isOrderQuery = (method: string, path: string) =>
  method === 'GET' && path.startsWith('/openapi/trade/order/');

export interface QueryPacer {
  /** Resolves when the key's next order query may go (rejects when `signal` aborts first). */
  take(key: string, signal?: AbortSignal): Promise<void>;
}

export function createQueryPacer(window = ORDER_QUERY_WINDOW_MS): QueryPacer {
  const windowMs = window * MARGIN;
  /** Per key, the times of its queries sent or waiting within the last window (ascending). */
  const slots = new Map<string, number[]>();
  return {
    take(key, signal) {
      const now = performance.now();
      const taken = (slots.get(key) ?? []).filter((at) => at > now - windowMs);
      const before = taken[taken.length - ORDER_QUERY_LIMIT];
      const at = before === undefined ? now : Math.max(now, before + windowMs);
      taken.push(at);
      slots.set(key, taken);
      // Keys whose windows passed are forgotten as other keys come by (one app key per user).
      if (slots.size > 1_000) {
        for (const [other, times] of slots) if ((times.at(-1) ?? 0) <= now - windowMs) slots.delete(other);
      }
      return at > now ? pauseFor(at - now, signal) : Promise.resolve();
    },
  };
}
