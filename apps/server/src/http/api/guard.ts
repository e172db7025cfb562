// Before every /api/v1 handler: the per-token rate limit (429 with Retry-After; every answer past
// it tells the allowance left in RateLimit-* headers), the bearer (401:
// none, unknown, expired or revoked, and sign-in sessions), the same limit per client and user (an
// application's every access token for one user shares it: a refreshed or second token brings no
// fresh allowance), the customer group bit (403, as GraphQL's requireViewer: SPEC §6), then the
// route's scope (403), each refusal with its RFC 6750 WWW-Authenticate
// challenge. The token itself is never logged: the limit is keyed by its SHA-256, as
// ApiPrincipal.credentialId. Failed authentications are limited per client address, together
// with /graphql's (modules/auth/failed-auth.ts): an address spraying random tokens is answered
// 429 before the lookup.
import { GROUP } from '@router/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../errors.ts';
import { RateLimiter } from '../../hook/rate-limit.ts';
import { TOO_MANY_FAILURES } from '../../modules/auth/failed-auth.ts';
import { hashToken } from '../../modules/auth/tokens.ts';
import { verifyBearer } from '../../modules/oauth/verify-bearer.ts';
import type { Services } from '../../services.ts';
import { bearerToken } from '../bearer.ts';
import type { ApiInstance } from './scope.ts';

export const UNAUTHENTICATED_MESSAGE = 'A valid access token is required (Authorization: Bearer <token>)';

/** RFC 6750 §3: a 401 and a 403 name the scheme, and why (OAuth clients refresh on invalid_token). */
const CHALLENGE = 'Bearer realm="api"';

export { FAILED_AUTH_PER_ADDRESS, TOO_MANY_FAILURES } from '../../modules/auth/failed-auth.ts';

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
  const limiter = new RateLimiter<string>(services.config.API_RATE_PER_TOKEN, { now: services.identity.now });
  const failures = services.identity.failedAuth;
  api.decorateRequest('apiPrincipal', null);
  api.addHook('onRequest', async (req: FastifyRequest, reply: FastifyReply) => {
    // No route (methods.ts answers 404 or 405): nothing of a user's to guard.
    if (req.is404) return;
    // A user's accounts, orders and holdings: no shared proxy or browser cache keeps them.
    reply.header('cache-control', 'no-store');
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
    const hash = hashToken(token);
    const wait = failures.refusal(req.ip, hash);
    if (wait > 0) {
      reply.header('retry-after', String(wait));
      throw new AppError('RATE_LIMITED', TOO_MANY_FAILURES);
    }
    limit(hash);
    const caller = await verifyBearer(services, token);
    if (!caller) {
      failures.failed(req.ip, hash);
      reply.header('www-authenticate', `${CHALLENGE}, error="invalid_token"`);
      throw new AppError('UNAUTHENTICATED', UNAUTHENTICATED_MESSAGE);
    }
    failures.succeeded(hash);
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
