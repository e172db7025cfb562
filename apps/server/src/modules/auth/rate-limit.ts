// In-memory sliding-window rate limiter. Per process: with N instances behind a load balancer a
// client gets up to N times the limit (documented in the README); good enough against guessing.

export interface Rule {
  limit: number;
  windowMs: number;
}

/** SPEC-driven limits of the identity operations. */
export const RULES = {
  signin: { limit: 10, windowMs: 60_000 },
  signinIp: { limit: 60, windowMs: 60_000 },
  signup: { limit: 20, windowMs: 10 * 60_000 },
  estimate: { limit: 30, windowMs: 60_000 },
  resetRequestIp: { limit: 10, windowMs: 15 * 60_000 },
  resetRequestEmail: { limit: 5, windowMs: 60 * 60_000 },
  emailLink: { limit: 30, windowMs: 60_000 },
  passcodeFailures: { limit: 5, windowMs: 5 * 60_000 },
  confirmationResend: { limit: 1, windowMs: 5 * 60_000 },
} as const satisfies Record<string, Rule>;

const MAX_KEYS = 50_000;
const LONGEST_WINDOW_MS = Math.max(...Object.values(RULES).map((r) => r.windowMs));

export class RateLimiter {
  readonly #hits = new Map<string, number[]>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** Counts one hit; false (and not counted) when the key is already at its limit. */
  take(key: string, rule: Rule): boolean {
    if (!this.allows(key, rule)) return false;
    this.add(key);
    return true;
  }

  /** Whether one more hit fits, without counting it. */
  allows(key: string, rule: Rule): boolean {
    const since = this.#now() - rule.windowMs;
    const hits = this.#hits.get(key);
    if (!hits) return true;
    let recent = 0;
    for (const at of hits) if (at > since) recent++;
    return recent < rule.limit;
  }

  /** Counts a hit without checking (failures counted after the fact). */
  add(key: string): void {
    const now = this.#now();
    const hits = this.#hits.get(key) ?? [];
    hits.push(now);
    // Keep only what the longest window can still see, and bound the memory.
    while (hits.length > 0 && (hits[0] as number) <= now - LONGEST_WINDOW_MS) hits.shift();
    if (hits.length > 200) hits.splice(0, hits.length - 200);
    this.#hits.delete(key);
    this.#hits.set(key, hits);
    if (this.#hits.size > MAX_KEYS) this.#sweep(now);
  }

  /** Forgets a key (a successful second factor clears its failures). */
  reset(key: string): void {
    this.#hits.delete(key);
  }

  #sweep(now: number): void {
    for (const [key, hits] of this.#hits) {
      const last = hits[hits.length - 1];
      if (last === undefined || last <= now - LONGEST_WINDOW_MS) this.#hits.delete(key);
    }
    // Still full: drop the least recently hit keys (Map keeps insertion order).
    for (const key of this.#hits.keys()) {
      if (this.#hits.size <= MAX_KEYS * 0.9) break;
      this.#hits.delete(key);
    }
  }
}
