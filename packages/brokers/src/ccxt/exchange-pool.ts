// Idle ccxt instances kept for the next call of the same connection. Building one costs 2.4–3.4 ms
// of CPU on the event loop (ccxt defines every REST method per instance), and every order, lookup
// and connect built its own: a burst of 100 crypto signals held the event loop, and with it every
// other request, for ~300 ms. A call takes an idle instance built for the same setup (endpoint and
// credentials) or builds one, and gives it back when it is done. No two calls share one at once:
// its fetch carries the call's deadline and its last answer explains the call's errors
// (exchange.ts). At most MAX_IDLE wait per venue (~140 KB each), the least recently used dropped.
import { createHash } from 'node:crypto';
import type { Exchange } from 'ccxt';

export const MAX_IDLE = 32;

export class ExchangePool {
  /** Idle instances by setup key, least recently given back first. */
  readonly #idle = new Map<string, Exchange[]>();
  #count = 0;

  /** An idle instance of the setup, now the caller's alone; none when all are in use. */
  take(key: string): Exchange | undefined {
    const list = this.#idle.get(key);
    const exchange = list?.pop();
    if (!list || !exchange) return undefined;
    this.#count--;
    if (list.length === 0) this.#idle.delete(key);
    return exchange;
  }

  give(key: string, exchange: Exchange): void {
    const list = this.#idle.get(key) ?? [];
    this.#idle.delete(key); // inserted again last: the most recently used setup
    list.push(exchange);
    this.#idle.set(key, list);
    this.#count++;
    while (this.#count > MAX_IDLE) {
      const [oldKey, oldest] = this.#idle.entries().next().value as [string, Exchange[]];
      oldest.shift();
      this.#count--;
      if (oldest.length === 0) this.#idle.delete(oldKey);
    }
  }

  /** Instances waiting (tests). */
  get size(): number {
    return this.#count;
  }
}

/** A setup's key: a digest, so the pool's keys hold no credential in the clear. */
export function setupKey(parts: readonly unknown[]): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('base64url');
}
