// The fake's OAuth side (WIRE.md §1): the consent page /apps/auth (approves at once and sends the
// user back with ?code=…&state=…), and /apps/token, a GET whose query carries the grant and the
// application's id and secret. Codes live one minute; access tokens 2,628,000 s; a refresh token
// never expires but works once: refreshing issues a new pair and ends the old access token (its
// account sessions get ProtoOAAccountsTokenInvalidatedEvent). Refusals come as HTTP 200 with
// cTrader's error body {"errorCode": "…", "description": "…"}. Fixture tokens are pre-issued.
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

export const ACCESS_SECONDS = 2_628_000;
const CODE_MS = 60_000;
/** token.response.json's pair, so the published socket examples work as they are. */
const PUBLISHED = { accessToken: 'r7Hs2Wk9QpL0dXvY3mZb5nTc8aEfGh1J', refreshToken: 'Zq4Wx6Ey8Rc0Tv2Bn4Mk6Lj8Hg0Fd2Sa' };

export interface OAuthOptions {
  clientId: string;
  clientSecret: string;
  now: () => number;
}

export interface TokenPair {
  accessToken: string;
  tokenType: 'bearer';
  expiresIn: number;
  refreshToken: string;
}

const token = () => randomBytes(24).toString('base64url');
const refusal = (errorCode: string, description: string) => ({ errorCode, description });

export function registerOAuth(app: FastifyInstance, options: OAuthOptions) {
  const codes = new Map<string, { redirectUri: string; expiresAt: number }>();
  const access = new Map<string, number>([[PUBLISHED.accessToken, options.now() + ACCESS_SECONDS * 1000]]);
  const refresh = new Set<string>([PUBLISHED.refreshToken]);
  const pairOf = new Map<string, string>([[PUBLISHED.refreshToken, PUBLISHED.accessToken]]);
  const invalidated = new Set<(accessToken: string) => void>();

  function issue(): TokenPair {
    const pair: TokenPair = {
      accessToken: token(),
      tokenType: 'bearer',
      expiresIn: ACCESS_SECONDS,
      refreshToken: token(),
    };
    access.set(pair.accessToken, options.now() + ACCESS_SECONDS * 1000);
    refresh.add(pair.refreshToken);
    pairOf.set(pair.refreshToken, pair.accessToken);
    return pair;
  }

  /** A new pair for a refresh token, which stops working; undefined when it is not (or no longer) valid. */
  function renew(refreshToken: string): TokenPair | undefined {
    if (!refresh.delete(refreshToken)) return undefined;
    const old = pairOf.get(refreshToken);
    pairOf.delete(refreshToken);
    if (old) {
      access.delete(old);
      for (const listener of invalidated) listener(old);
    }
    return issue();
  }

  function issueCode(redirectUri: string): string {
    const code = token();
    codes.set(code, { redirectUri, expiresAt: options.now() + CODE_MS });
    return code;
  }

  app.get('/apps/auth', async (request, reply) => {
    const query = request.query as Record<string, string | undefined>;
    if (query.client_id !== options.clientId || !query.redirect_uri || query.scope !== 'trading') {
      return reply.code(400).type('text/html').send('<html><body>Invalid application or scope</body></html>');
    }
    const target = new URL(query.redirect_uri);
    target.searchParams.set('code', issueCode(query.redirect_uri));
    if (query.state !== undefined) target.searchParams.set('state', query.state);
    return reply.redirect(target.toString(), 302);
  });

  app.get('/apps/token', async (request) => {
    const query = request.query as Record<string, string | undefined>;
    if (query.client_id !== options.clientId || query.client_secret !== options.clientSecret) {
      return refusal('ACCESS_DENIED', 'Invalid client credentials');
    }
    if (query.grant_type === 'authorization_code') {
      const code = query.code ? codes.get(query.code) : undefined;
      if (query.code) codes.delete(query.code);
      if (!code || code.expiresAt < options.now() || code.redirectUri !== query.redirect_uri) {
        return refusal('ACCESS_DENIED', 'Authorization code is invalid or expired');
      }
      return issue();
    }
    if (query.grant_type === 'refresh_token') {
      return renew(query.refresh_token ?? '') ?? refusal('ACCESS_DENIED', 'Refresh token is invalid');
    }
    return refusal('INVALID_REQUEST', 'Unsupported grant_type');
  });

  return {
    issueCode,
    renew,
    /** True while the access token works. */
    accessValid: (accessToken: string) => (access.get(accessToken) ?? 0) > options.now(),
    /** Called with each access token a refresh ended. */
    onInvalidated: (listener: (accessToken: string) => void) => invalidated.add(listener),
  };
}
