// Before every /api/v1 handler: the per-token rate limit (429 with Retry-After; every answer past
// it tells the allowance left in RateLimit-* headers), the bearer (401:
// none, unknown, expired or revoked, and sign-in sessions), the same limit per client and user (an
// application's every access token for one user shares it: a refreshed or second token brings no
// fresh allowance), the customer group bit (403, as GraphQL's requireViewer: SPEC §6), then the
// route's scope (403), each refusal with its RFC 6750 WWW-Authenticate
// challenge. The token itself is never logged: the limit is keyed by its SHA-256, as
// ApiPrincipal.credentialId. Failed authentications are limited per client address (req.ip, as
// TRUST_PROXY names it; an IPv6 client by its /64: addressKey): random tokens each have a fresh
// per-token allowance and each cost a database lookup, so an address that sprays them is
// answered 429 before the lookup. Valid tokens spend none of it, and one that authenticated
// lately still passes from such an address (a script looping on a stale token does not stop its
// neighbours behind the same NAT).
import { createHash } from 'node:crypto';
import { GROUP } from '@router/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { addressKey } from '../../address-key.ts';
import { AppError } from '../../errors.ts';
import { RateLimiter } from '../../hook/rate-limit.ts';
import { verifyBearer } from '../../modules/oauth/verify-bearer.ts';
import type { Services } from '../../services.ts';
import { bearerToken } from '../bearer.ts';
import type { ApiInstance } from './scope.ts';

export const UNAUTHENTICATED_MESSAGE = 'A valid access token is required (Authorization: Bearer <token>)';

/** RFC 6750 §3: a 401 and a 403 name the scheme, and why (OAuth clients refresh on invalid_token). */
const CHALLENGE = 'Bearer realm="api"';

/** Unknown, expired or revoked tokens per client address: 50 at once, then one a second. */
export const FAILED_AUTH_PER_ADDRESS = { rate: 1, burst: 50 };
export const TOO_MANY_FAILURES = 'Too many invalid access tokens from this address, slow down';
/** Tokens (by hash) that authenticated lately, let past an address's failure limit: how long, how many. */
const KNOWN_TTL_MS = 10 * 60_000;
const KNOWN_MAX = 10_000;

/**
 * RateLimit-Limit, -Remaining and -Reset (the IETF httpapi draft's names): the bucket's size, the
 * requests left now and the seconds until it is full again, of the tightest bucket counted, so a
 * client paces itself before a 429 rather than after.
 */
function tellAllowance(reply: FastifyReply, limiter: RateLimiter<string>, keys: readonly string[]): void {
  reply.header('ratelimit-limit', String(limiter.burst));
  reply.header('ratelimit-remaining', String(Math.min(...keys.map((key) => limiter.remaining(key)))));
  reply.header('ratelimit-reset', String(Math.max(...keys.map((key) => limiter.resetS(key)))));
}

export function registerGuard(api: ApiInstance, services: Services): void {
  const limiter = new RateLimiter<string>(services.config.API_RATE_PER_TOKEN);
  const failures = new RateLimiter<string>(FAILED_AUTH_PER_ADDRESS);
  /** Token hash → when it last authenticated (oldest first: a Map keeps insertion order). */
  const known = new Map<string, number>();
  const isKnown = (hash: string) => (known.get(hash) ?? 0) > Date.now() - KNOWN_TTL_MS;
  api.decorateRequest('apiPrincipal', null);
  api.addHook('onRequest', async (req: FastifyRequest, reply: FastifyReply) => {
    const token = bearerToken(req);
    if (!token) {
      reply.header('www-authenticate', CHALLENGE);
      throw new AppError('UNAUTHENTICATED', UNAUTHENTICATED_MESSAGE);
    }
    /** The buckets this request was counted in (the token's, then its client's for the user). */
    const counted: string[] = [];
    const limit = (key: string) => {
      counted.push(key);
      const taken = limiter.take(key);
      if (limiter.enabled) tellAllowance(reply, limiter, counted);
      if (taken) return;
      reply.header('retry-after', String(limiter.retryAfterS(key)));
      throw new AppError('RATE_LIMITED', 'Too many requests for this token, slow down');
    };
    const hash = createHash('sha256').update(token).digest('base64url');
    const address = addressKey(req.ip);
    if (failures.waitMs(address) > 0 && !isKnown(hash)) {
      reply.header('retry-after', String(failures.retryAfterS(address)));
      throw new AppError('RATE_LIMITED', TOO_MANY_FAILURES);
    }
    limit(hash);
    const caller = await verifyBearer(services, token);
    known.delete(hash);
    if (!caller) {
      failures.take(address);
      reply.header('www-authenticate', `${CHALLENGE}, error="invalid_token"`);
      throw new AppError('UNAUTHENTICATED', UNAUTHENTICATED_MESSAGE);
    }
    if (known.size >= KNOWN_MAX) known.delete(known.keys().next().value ?? '');
    known.set(hash, Date.now());
    limit(`${caller.client}:${caller.userId}`);
    // Every signed-in ability is the customer's (SPEC §6): a user without the bit trades nowhere.
    if ((caller.group & GROUP.CUSTOMER) === 0) {
      reply.header('www-authenticate', CHALLENGE);
      throw new AppError('FORBIDDEN', 'You are not allowed to do this');
    }
    const needed = req.routeOptions.config.apiScope;
    if (needed && !caller.scopes.has(needed)) {
      reply.header('www-authenticate', `${CHALLENGE}, error="insufficient_scope", scope="${needed}"`);
      throw new AppError('FORBIDDEN', `This token lacks the scope ${needed}`);
    }
    req.apiPrincipal = caller;
  });
}
