// Token buckets in memory: per hook and per source address. Generous by default so the bursts
// TradingView sends at bar closes pass; a scanner or a runaway script is slowed to the rate.
// TradingView's sending addresses are shared by all its users and are never limited by address
// (receive.ts; their hooks still are, each by its own bucket).

export interface RateSetting {
  /** Tokens per second; 0 turns the limit off. */
  rate: number;
  burst: number;
}

interface Bucket {
  tokens: number;
  at: number;
}

export class RateLimiter<K> {
  readonly #buckets = new Map<K, Bucket>();
  readonly #rate: number;
  readonly #burst: number;
  readonly #maxKeys: number;
  readonly #now: () => number;

  constructor(setting: RateSetting, options: { maxKeys?: number; now?: () => number } = {}) {
    this.#rate = setting.rate / 1000;
    this.#burst = setting.burst;
    this.#maxKeys = options.maxKeys ?? 100_000;
    this.#now = options.now ?? Date.now;
  }

  get enabled(): boolean {
    return this.#rate > 0;
  }

  /** Keys tracked (at most maxKeys). */
  get size(): number {
    return this.#buckets.size;
  }

  /** Takes one token; false when the bucket is empty. */
  take(key: K): boolean {
    if (this.#rate <= 0) return true;
    const now = this.#now();
    let bucket = this.#buckets.get(key);
    if (!bucket) {
      if (this.#buckets.size >= this.#maxKeys) this.sweep();
      bucket = { tokens: this.#burst, at: now };
      this.#buckets.set(key, bucket);
    } else {
      bucket.tokens = Math.min(this.#burst, bucket.tokens + (now - bucket.at) * this.#rate);
      bucket.at = now;
    }
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  }

  /** The bucket's size: how many requests may come at once. */
  get burst(): number {
    return this.#burst;
  }

  /** The tokens `key` has now (a full bucket for a key not seen, or with the limit off). */
  #tokens(key: K): number {
    const bucket = this.#buckets.get(key);
    if (!bucket || this.#rate <= 0) return this.#burst;
    return Math.min(this.#burst, bucket.tokens + (this.#now() - bucket.at) * this.#rate);
  }

  /** Milliseconds until `key` has a token again (0 when it has one): a 429's Retry-After. */
  waitMs(key: K): number {
    const tokens = this.#tokens(key);
    return tokens >= 1 ? 0 : Math.ceil((1 - tokens) / this.#rate);
  }

  /** Whole requests `key` may make now (RateLimit-Remaining). */
  remaining(key: K): number {
    return Math.floor(this.#tokens(key));
  }

  /** Whole seconds until `key`'s bucket is full again, 0 when it is (RateLimit-Reset). */
  resetS(key: K): number {
    const missing = this.#burst - this.#tokens(key);
    return missing <= 0 ? 0 : Math.ceil(missing / this.#rate / 1000);
  }

  /** A 429's Retry-After: whole seconds until `key` has a token again, at least 1. */
  retryAfterS(key: K): number {
    return Math.max(1, Math.ceil(this.waitMs(key) / 1000));
  }

  /**
   * Forgets buckets that have refilled (they behave like new ones). Still full: forgets the
   * fullest tenth, whose fresh bucket gives least away. Never all of them: a flood of new keys
   * (random tokens, addresses) would otherwise hand every spent key its burst again.
   */
  sweep(): void {
    const now = this.#now();
    const tokensOf = (bucket: Bucket) => bucket.tokens + (now - bucket.at) * this.#rate;
    for (const [key, bucket] of this.#buckets) {
      if (tokensOf(bucket) >= this.#burst) this.#buckets.delete(key);
    }
    if (this.#buckets.size < this.#maxKeys) return;
    const fullest = [...this.#buckets].sort(([, a], [, b]) => tokensOf(b) - tokensOf(a));
    const keep = Math.floor(this.#maxKeys * 0.9);
    for (const [key] of fullest.slice(0, Math.max(1, fullest.length - keep))) this.#buckets.delete(key);
  }
}
