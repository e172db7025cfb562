// Failed authentications per client address, shared by the REST API (/api/v1), /graphql and the
// consent endpoints (/api/oauth):
// random bearer tokens each cost a database lookup, so an address that sprays them is refused
// before the lookup (one allowance for both endpoints). The address is req.ip, as TRUST_PROXY
// names it; an IPv6 client by its /64 (addressKey). Valid tokens spend none of it, and one that
// authenticated lately (or was just issued) still passes from such an address: a script looping
// on a stale token does not stop its neighbours behind the same NAT.
import { addressKey } from '../../address-key.ts';
import { AppError } from '../../errors.ts';
import { RateLimiter } from '../../hook/rate-limit.ts';
import { hashToken } from './tokens.ts';

/** Unknown, expired or revoked tokens per client address: 50 at once, then one a second. */
export const FAILED_AUTH_PER_ADDRESS = { rate: 1, burst: 50 };
export const TOO_MANY_FAILURES = 'Too many invalid access tokens from this address, slow down';
/** Tokens (by hash) that authenticated lately, let past an address's failure limit: how long, how many. */
const KNOWN_TTL_MS = 10 * 60_000;
const KNOWN_MAX = 10_000;

export class FailedAuthGate {
  readonly #failures: RateLimiter<string>;
  /** Token hash → when it last authenticated (oldest first: a Map keeps insertion order). */
  readonly #known = new Map<string, number>();
  readonly #now: () => number;

  /** `now`: the clock the allowance refills by (tests stop it, so a test's speed changes nothing). */
  constructor(now: () => number = Date.now) {
    this.#now = now;
    this.#failures = new RateLimiter<string>(FAILED_AUTH_PER_ADDRESS, { now });
  }

  /** Whole seconds to wait before a token not known lately is tried from `ip`; 0: go ahead. */
  refusal(ip: string, tokenHash: string): number {
    const address = addressKey(ip);
    if (this.#failures.waitMs(address) === 0) return 0;
    return (this.#known.get(tokenHash) ?? 0) > this.#now() - KNOWN_TTL_MS ? 0 : this.#failures.retryAfterS(address);
  }

  /** The token resolved to no credential: counted against its address. */
  failed(ip: string, tokenHash: string): void {
    this.#known.delete(tokenHash);
    this.#failures.take(addressKey(ip));
  }

  /** The token is a live credential (it authenticated, or was just issued). */
  succeeded(tokenHash: string): void {
    this.#known.delete(tokenHash);
    if (this.#known.size >= KNOWN_MAX) this.#known.delete(this.#known.keys().next().value ?? '');
    this.#known.set(tokenHash, this.#now());
  }

  /**
   * Looks `token` up from `ip` (`lookup`), refused before the lookup (RATE_LIMITED) when the
   * address is over its failures and the token not known lately; `live` tells a credential
   * from nothing by the answer and the token's hash.
   */
  async resolve<T>(ip: string, token: string, lookup: () => Promise<T>, live: (found: T, hash: string) => boolean) {
    const hash = hashToken(token);
    const wait = this.refusal(ip, hash);
    if (wait > 0) throw new AppError('RATE_LIMITED', TOO_MANY_FAILURES, { retryAfterS: wait });
    const found = await lookup();
    if (live(found, hash)) this.succeeded(hash);
    else this.failed(ip, hash);
    return found;
  }
}
