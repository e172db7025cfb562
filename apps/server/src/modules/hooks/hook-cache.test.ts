// The in-process hook cache and hook_changed: a change (a rule saved, a pause) applies to the
// next signal, even when a load of the hook was under way as the change was notified.
import { describe, expect, it } from 'vitest';
import { HookCache } from './hook-cache.ts';
import type { HookEntry } from './hook-entry.ts';

/** A loader whose loads the test answers one by one, in the order they were asked. */
function controlledLoader() {
  const pending: Array<(entry: HookEntry | null) => void> = [];
  const load = (_shortKey: string) => new Promise<HookEntry | null>((resolve) => pending.push(resolve));
  return { load, pending };
}

const entry = (name: string) => ({ name, connectorId: 1 }) as unknown as HookEntry;

describe('HookCache', () => {
  // A load that read the row before the change was handed to the signal arriving after the
  // change's notification: a maxQuantity just saved was not applied to it.
  it.each([
    ['invalidate', (cache: HookCache) => cache.invalidate('k')],
    ['clear', (cache: HookCache) => cache.clear()],
    ['forgetConnector', (cache: HookCache) => cache.forgetConnector(1)],
  ])('after %s, a get loads afresh instead of sharing a load begun before', async (_name, change) => {
    const { load, pending } = controlledLoader();
    const cache = new HookCache(load);
    const before = cache.get('k');
    change(cache);
    const after = cache.get('k');
    expect(pending).toHaveLength(2);
    pending[0]?.(entry('old rules'));
    pending[1]?.(entry('new rules'));
    expect((await before)?.name).toBe('old rules');
    expect((await after)?.name).toBe('new rules');
    // The fresh load is the one kept; the one begun before the change is not.
    expect((cache.get('k') as HookEntry).name).toBe('new rules');
  });

  it('shares one load between concurrent misses while nothing changes', async () => {
    const { load, pending } = controlledLoader();
    const cache = new HookCache(load);
    const first = cache.get('k');
    const second = cache.get('k');
    expect(pending).toHaveLength(1);
    pending[0]?.(entry('rules'));
    expect(await first).toBe(await second);
  });
});
