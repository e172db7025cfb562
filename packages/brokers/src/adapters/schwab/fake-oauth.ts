// The fake's OAuth side: Schwab's consent page (approves at once and redirects back with
// ?code=...&session=...&state=...), the token endpoint, and Bearer checks for the Trader API.
// Refused refresh tokens get Schwab's observed answer (400, the real error nested inside):
//   {"error":"unsupported_token_type","error_description":"400 Bad Request: \"{\"error_description\":
//    \"Failed refresh token authentication\",\"error\":\"refresh_token_authentication_error\"}\""}
import { randomBytes, randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

const ACCESS_MS = 30 * 60_000;
const REFRESH_MS = 7 * 24 * 60 * 60_000;
/** Schwab's codes are short-lived (about 30 s); a minute leaves room for slow test machines. */
const CODE_MS = 60_000;

interface OAuthOptions {
  clientId: string;
  clientSecret: string;
  now: () => number;
}

const token = (prefix: string) => `${prefix}${randomBytes(24).toString('base64url')}`;
const nested = (error: string, description: string) => ({
  error: 'unsupported_token_type',
  error_description: `400 Bad Request: "${JSON.stringify({ error_description: description, error }).replace(/"/g, '\\"')}"`,
});

export function registerOAuth(app: FastifyInstance, options: OAuthOptions) {
  const codes = new Map<string, { redirectUri: string; expiresAt: number }>();
  const refreshTokens = new Map<string, number>();
  const accessTokens = new Map<string, number>();

  function issueCode(redirectUri: string): string {
    // Schwab's codes end in "@" and arrive URL-encoded (%40); the callback decodes them.
    const code = `C0.${randomBytes(18).toString('base64url')}@`;
    codes.set(code, { redirectUri, expiresAt: options.now() + CODE_MS });
    return code;
  }

  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(String(body))));
  });

  app.get('/v1/oauth/authorize', async (request, reply) => {
    const query = request.query as Record<string, string | undefined>;
    if (query.client_id !== options.clientId || query.response_type !== 'code' || !query.redirect_uri) {
      return reply.code(400).type('text/html').send('<html><body>Invalid request</body></html>');
    }
    const target = new URL(query.redirect_uri);
    target.searchParams.set('code', issueCode(query.redirect_uri));
    target.searchParams.set('session', randomUUID());
    if (query.state !== undefined) target.searchParams.set('state', query.state);
    return reply.redirect(target.toString(), 302);
  });

  app.post('/v1/oauth/token', async (request, reply) => {
    const expected = `Basic ${Buffer.from(`${options.clientId}:${options.clientSecret}`).toString('base64')}`;
    if (request.headers.authorization !== expected) {
      return reply.code(401).send({ error: 'invalid_client', error_description: 'Unauthorized' });
    }
    const form = (request.body ?? {}) as Record<string, string | undefined>;
    const now = options.now();
    let refreshToken: string;
    if (form.grant_type === 'authorization_code') {
      const code = form.code ? codes.get(form.code) : undefined;
      if (form.code) codes.delete(form.code);
      if (!code || code.expiresAt < now || code.redirectUri !== form.redirect_uri) {
        return reply.code(400).send(nested('invalid_request', 'Bad authorization code: AuthorizationCode not found'));
      }
      refreshToken = token('RT.');
      refreshTokens.set(refreshToken, now + REFRESH_MS);
    } else if (form.grant_type === 'refresh_token') {
      const expiresAt = form.refresh_token ? refreshTokens.get(form.refresh_token) : undefined;
      if (!form.refresh_token || expiresAt === undefined || expiresAt <= now) {
        return reply
          .code(400)
          .send(nested('refresh_token_authentication_error', 'Failed refresh token authentication'));
      }
      refreshToken = form.refresh_token;
    } else {
      return reply.code(400).send({ error: 'unsupported_grant_type', error_description: 'grant_type' });
    }
    const accessToken = token('I0.');
    accessTokens.set(accessToken, now + ACCESS_MS);
    return {
      expires_in: ACCESS_MS / 1000,
      token_type: 'Bearer',
      scope: 'api',
      refresh_token: refreshToken,
      access_token: accessToken,
      id_token: token('eyJ'),
    };
  });

  /** Why a Trader API call is refused, or undefined when its Bearer token is good. */
  function checkBearer(header: string | undefined): string | undefined {
    const value = /^Bearer (.+)$/.exec(header ?? '')?.[1];
    if (!value) return 'missing access token';
    const expiresAt = accessTokens.get(value);
    if (expiresAt === undefined) return 'unknown access token';
    if (expiresAt <= options.now()) return 'access token expired';
    return undefined;
  }

  /** Revokes every access token (Schwab invalidates them early at times). */
  const revokeAccessTokens = () => accessTokens.clear();

  return { issueCode, checkBearer, revokeAccessTokens };
}
