// Sliding-window rate limits of the identity operations, counted in PostgreSQL (rate_limits) so
// that every instance behind a load balancer counts one limit together. Keys (addresses,
// emails) are stored hashed.
import { createHash } from 'node:crypto';
import {
  addRateHit,
  countRateHits,
  rateHitsByBucket,
  removeRateHit,
  resetRateHits,
  sweepRateHits,
  takeRateHit,
  type Window,
} from '../../db/repositories/rate-limits.repository.ts';
import type { Queryable } from '../../db/repositories/signals.repository.ts';
import { AppError } from '../../errors.ts';

export const TOO_MANY_ATTEMPTS = 'Too many attempts, please wait a minute and try again';

export interface Rule {
  limit: number;
  windowMs: number;
}

/** SPEC-driven limits of the identity operations. */
export const RULES = {
  signin: { limit: 10, windowMs: 60_000 },
  signinIp: { limit: 60, windowMs: 60_000 },
  /**
   * Password sign-ins to one email from all addresses together (a success takes back only its own
   * attempt, a password reset clears it): the limits per address alone let a botnet guess one
   * trader's password without end.
   */
  signinAccount: { limit: 50, windowMs: 60 * 60_000 },
  signup: { limit: 20, windowMs: 10 * 60_000 },
  estimate: { limit: 30, windowMs: 60_000 },
  resetRequestIp: { limit: 10, windowMs: 15 * 60_000 },
  resetRequestEmail: { limit: 5, windowMs: 60 * 60_000 },
  emailLink: { limit: 30, windowMs: 60_000 },
  passcodeFailures: { limit: 5, windowMs: 5 * 60_000 },
  /**
   * And per day: 5 per 5 minutes alone is 1,440 guesses a day, each with 3 codes in 10^6 valid
   * (the window ±1 step), so whoever holds the password would pass in months. The owner's valid
   * code does not clear this one (it only takes its own attempt back): else every sign-in of the
   * owner would hand whoever holds the password fresh guesses.
   */
  passcodeFailuresDaily: { limit: 20, windowMs: 24 * 60 * 60_000 },
  confirmationResend: { limit: 1, windowMs: 5 * 60_000 },
  /** A Google or Apple ID token's nonce signs in once; blocked at least an hour (Google's token lifetime). */
  socialNonce: { limit: 1, windowMs: 60 * 60_000 },
} as const satisfies Record<string, Rule>;

/** How often expired counters are removed, by whichever instance gets there. */
const SWEEP_EVERY_MS = 10 * 60_000;

export class RateLimiter {
  readonly #db: Queryable;
  readonly #now: () => number;
  #sweptAt = 0;

  constructor(db: Queryable, now: () => number = Date.now) {
    this.#db = db;
    this.#now = now;
  }

  /** Counts one hit; false (and not counted) when the key is already at its limit. */
  async take(key: string, rule: Rule): Promise<boolean> {
    const taken = await takeRateHit(this.#db, this.#window(key, rule), rule.limit);
    await this.#sweep();
    return taken;
  }

  /**
   * Counts one hit, or throws RATE_LIMITED (`message`) with the whole seconds until one more
   * would fit (Retry-After, GraphQL's `extensions.retryAfter`) when the key is at its limit.
   */
  async enforce(key: string, rule: Rule, message = TOO_MANY_ATTEMPTS): Promise<void> {
    if (await this.take(key, rule)) return;
    throw new AppError('RATE_LIMITED', message, { retryAfterS: await this.retryAfterS(key, rule) });
  }

  /**
   * Whole seconds (at least 1) until one more hit fits, if nothing else is counted meanwhile: the
   * previous window's weight fades through the current one, then the current's through the next.
   */
  async retryAfterS(key: string, rule: Rule): Promise<number> {
    const w = this.#window(key, rule);
    const { current, previous } = await rateHitsByBucket(this.#db, w);
    const room = rule.limit - 1;
    const left = w.previousWeight; // share of the current window still to run
    // The count at a share d of a window from now: current + previous * (left - d) while in this
    // window (fits within it when current alone does), then current * (1 - e) at a share e of the next.
    const waitShare =
      current <= room
        ? Math.max(0, previous > 0 ? (current + previous * left - room) / previous : 0)
        : left + 1 - room / current;
    // A hair over: at the exact instant the weighted count may still round above the room.
    return Math.max(1, Math.ceil((waitShare * rule.windowMs) / 1000 + 1e-6));
  }

  /** Whether one more hit fits, without counting it. */
  async allows(key: string, rule: Rule): Promise<boolean> {
    return (await countRateHits(this.#db, this.#window(key, rule))) + 1 <= rule.limit;
  }

  /** Counts a hit without checking (failures counted after the fact). */
  async add(key: string, rule: Rule): Promise<void> {
    await addRateHit(this.#db, this.#window(key, rule));
  }

  /** Takes back one hit counted in the current window (a success counted before it was judged). */
  async refund(key: string, rule: Rule): Promise<void> {
    await removeRateHit(this.#db, this.#window(key, rule));
  }

  /** Forgets a key (a successful second factor clears its short-window failures). */
  async reset(key: string, rule: Rule): Promise<void> {
    await resetRateHits(this.#db, this.#window(key, rule).key);
  }

  #window(key: string, rule: Rule): Window {
    const now = this.#now();
    const bucket = Math.floor(now / rule.windowMs);
    return {
      key: createHash('sha256').update(`${rule.windowMs}:${key}`).digest('base64url'),
      bucket,
      previousWeight: 1 - (now - bucket * rule.windowMs) / rule.windowMs,
      expiresAt: new Date((bucket + 2) * rule.windowMs),
    };
  }

  async #sweep(): Promise<void> {
    const now = this.#now();
    if (now - this.#sweptAt < SWEEP_EVERY_MS) return;
    this.#sweptAt = now;
    await sweepRateHits(this.#db, new Date(now));
  }
}
