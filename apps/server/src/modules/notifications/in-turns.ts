// Bounded concurrency for the delivery worker: it shares the event loop (and the machine) with
// the hook, so a round never starts all its sends at once, and gives way between batches.
import { setImmediate } from 'node:timers/promises';

/** Resolves after the I/O callbacks already waiting (the hook's requests) have run. */
export const yieldToOthers = (): Promise<void> => setImmediate();

/** `run` over `items` with at most `limit` in flight; results in the items' order. */
export async function inTurns<T, R>(items: readonly T[], limit: number, run: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await run(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return results;
}
