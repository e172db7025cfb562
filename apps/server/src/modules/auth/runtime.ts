// Per-instance identity state: rate limiters, session cache, mailer, social key sets, and the
// background work started by requests (awaited by tests).
import { createRemoteJWKSet, type JWTVerifyGetKey } from 'jose';
import type { Logger } from 'pino';
import type { Config } from '../../config.ts';
import type { Queryable } from '../../db/repositories/signals.repository.ts';
import { createMailer, type Mailer } from '../mail/mailer.ts';
import { FailedAuthGate } from './failed-auth.ts';
import { RateLimiter } from './rate-limit.ts';
import { SessionCache } from './session-cache.ts';

export type SocialIssuer = 'google' | 'apple';

export interface Identity {
  limiter: RateLimiter;
  /** Bearer tokens that resolved to nothing, per client address (REST API and /graphql). */
  failedAuth: FailedAuthGate;
  /** The clock in-memory allowances (failed authentications, /api/v1 per token, hooks) refill by. */
  now: () => number;
  sessions: SessionCache;
  mailer: Mailer;
  /** The provider's key set, fetched and cached by jose (refetched on an unknown key id). */
  jwks(issuer: SocialIssuer): JWTVerifyGetKey;
  /** Work that outlives its request (mails after a reset request); errors are logged. */
  background(task: () => Promise<void>): void;
  /** Resolves when the background work started so far (and what it started) has finished. */
  settled(): Promise<void>;
}

/** `now`: Date.now, or a test's stopped clock (allowances then refill only as the test says). */
export function createIdentity(config: Config, log: Logger, db: Queryable, now: () => number = Date.now): Identity {
  const keySets = new Map<SocialIssuer, JWTVerifyGetKey>();
  const pending = new Set<Promise<void>>();
  return {
    limiter: new RateLimiter(db),
    failedAuth: new FailedAuthGate(now),
    now,
    sessions: new SessionCache(),
    mailer: createMailer(config, log),
    jwks(issuer) {
      let set = keySets.get(issuer);
      if (!set) {
        set = createRemoteJWKSet(new URL(issuer === 'google' ? config.GOOGLE_JWKS_URL : config.APPLE_JWKS_URL));
        keySets.set(issuer, set);
      }
      return set;
    },
    background(task) {
      const run = task()
        .catch((err: unknown) => log.error({ err }, 'background identity task failed'))
        .finally(() => pending.delete(run));
      pending.add(run);
    },
    async settled() {
      // A task may start others (a reset request's mail): wait for those too.
      while (pending.size > 0) await Promise.all([...pending]);
    },
  };
}
