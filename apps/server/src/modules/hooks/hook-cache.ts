// shortKey → hook (with connector, provider and owner), in process, so a cached lookup costs no
// database round trip. Kept coherent by hook_changed notifications (hook-listener.ts); unknown
// keys are remembered briefly to blunt key scanning; entries are refreshed in the background
// after a while in case a notification was ever missed.
import type { HookEntry } from './hook-entry.ts';

export interface HookCacheOptions {
  /** Entries kept; the least recently used go first. */
  maxEntries?: number;
  /** How long an unknown key is answered 404 from memory. */
  negativeTtlMs?: number;
  /** After this age a hit is served and refreshed in the background. */
  refreshAfterMs?: number;
  now?: () => number;
}

interface Slot {
  entry: HookEntry | null;
  loadedAt: number;
}

export type HookLoader = (shortKey: string) => Promise<HookEntry | null>;

export class HookCache {
  readonly #slots = new Map<string, Slot>();
  readonly #loading = new Map<string, Promise<HookEntry | null>>();
  /** Bumped by clear(): a load that started before it must not store its (maybe stale) result. */
  #generation = 0;
  readonly #load: HookLoader;
  readonly #max: number;
  readonly #negativeTtl: number;
  readonly #refreshAfter: number;
  readonly #now: () => number;

  constructor(load: HookLoader, options: HookCacheOptions = {}) {
    this.#load = load;
    this.#max = options.maxEntries ?? 10_000;
    this.#negativeTtl = options.negativeTtlMs ?? 5_000;
    this.#refreshAfter = options.refreshAfterMs ?? 60_000;
    this.#now = options.now ?? Date.now;
  }

  /**
   * The hook, or null for an unknown key. A miss loads it (one query, shared by concurrent misses
   * until the key is invalidated: a load begun before a change is not shared after it).
   */
  get(shortKey: string): HookEntry | null | Promise<HookEntry | null> {
    const slot = this.#slots.get(shortKey);
    if (slot) {
      const age = this.#now() - slot.loadedAt;
      if (slot.entry === null) {
        if (age < this.#negativeTtl) return null;
      } else {
        // Most recently used moves to the end of the map's order.
        this.#slots.delete(shortKey);
        this.#slots.set(shortKey, slot);
        if (age >= this.#refreshAfter) void this.#fetch(shortKey).catch(() => {});
        return slot.entry;
      }
    }
    return this.#fetch(shortKey);
  }

  /** Drops one key (a hook_changed notification). */
  invalidate(shortKey: string): void {
    this.#slots.delete(shortKey);
    // A load under way may have read the row before the change: the next get loads afresh.
    this.#loading.delete(shortKey);
    this.#generation++;
  }

  /** Drops the hooks of one connector (it was just deactivated here; hook_changed follows). */
  forgetConnector(connectorId: number): void {
    for (const [shortKey, slot] of this.#slots) {
      if (slot.entry?.connectorId === connectorId) this.#slots.delete(shortKey);
    }
    this.#loading.clear();
    this.#generation++;
  }

  /** Drops everything (the listener reconnected and may have missed notifications). */
  clear(): void {
    this.#slots.clear();
    this.#loading.clear();
    this.#generation++;
  }

  get size(): number {
    return this.#slots.size;
  }

  #fetch(shortKey: string): Promise<HookEntry | null> {
    const pending = this.#loading.get(shortKey);
    if (pending) return pending;
    const generation = this.#generation;
    const loading = this.#load(shortKey).then(
      (entry) => {
        if (this.#loading.get(shortKey) === loading) this.#loading.delete(shortKey);
        if (generation === this.#generation) this.#store(shortKey, entry);
        return entry;
      },
      (error: unknown) => {
        if (this.#loading.get(shortKey) === loading) this.#loading.delete(shortKey);
        throw error;
      },
    );
    this.#loading.set(shortKey, loading);
    return loading;
  }

  #store(shortKey: string, entry: HookEntry | null): void {
    this.#slots.delete(shortKey);
    this.#slots.set(shortKey, { entry, loadedAt: this.#now() });
    if (this.#slots.size > this.#max) {
      const oldest = this.#slots.keys().next().value;
      if (oldest !== undefined) this.#slots.delete(oldest);
    }
  }
}

/** Each running instance's cache, by the services its signal runtime was made of. */
const caches = new WeakMap<object, HookCache>();

/** Makes `cache` the one hooksChangedHere drops from (createSignalRuntime). */
export function keepHookCache(services: object, cache: HookCache): void {
  caches.set(services, cache);
}

/**
 * After a change to these hooks is committed (its hook_changed sent), drops them from this
 * instance's own cache at once: the notification reaches it a few milliseconds later, and a
 * signal sent right after the answer (new settings saved, the webhooks paused) must not be
 * judged by the copy from before.
 */
export function hooksChangedHere(services: object, shortKeys: readonly string[]): void {
  const cache = caches.get(services);
  for (const shortKey of shortKeys) cache?.invalidate(shortKey);
}
