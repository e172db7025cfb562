// The fake's OAuth 2.0 side, as Saxo's authorization server answers (WIRE.md §1): a consent page
// that approves at once and redirects back with ?code=…&state=…, a token endpoint taking the app's
// key and secret as HTTP Basic, refresh tokens rotated on every refresh (the old one refused),
// access tokens of 20 minutes and refresh tokens of an hour on the injected clock. The API answers
// a missing or expired token 401 with an empty body, as Saxo does.
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

export const ACCESS_SECONDS = 1200;
export const REFRESH_SECONDS = 3600;
const CODE_MS = 60_000;

interface OAuthOptions {
  appKey: string;
  appSecret: string;
  now: () => number;
}

const token = (prefix: string) => `${prefix}${randomBytes(24).toString('base64url')}`;

export function registerOAuth(app: FastifyInstance, options: OAuthOptions) {
  const codes = new Map<string, { redirectUri: string; expiresAt: number }>();
  const refreshTokens = new Map<string, number>();
  const accessTokens = new Map<string, number>();

  function issueCode(redirectUri: string): string {
    const code = token('');
    codes.set(code, { redirectUri, expiresAt: options.now() + CODE_MS });
    return code;
  }

  app.get('/authorize', async (request, reply) => {
    const query = request.query as Record<string, string | undefined>;
    if (query.client_id !== options.appKey || query.response_type !== 'code' || !query.redirect_uri) {
      return reply.code(400).type('text/html').send('<html><body>Invalid request</body></html>');
    }
    const target = new URL(query.redirect_uri);
    target.searchParams.set('code', issueCode(query.redirect_uri));
    if (query.state !== undefined) target.searchParams.set('state', query.state);
    return reply.redirect(target.toString(), 302);
  });

  app.post('/token', async (request, reply) => {
    const expected = `Basic ${Buffer.from(`${options.appKey}:${options.appSecret}`).toString('base64')}`;
    if (request.headers.authorization !== expected) {
      return reply.code(401).send({ error: 'invalid_client', error_description: 'Client authentication failed' });
    }
    const form = (request.body ?? {}) as Record<string, string | undefined>;
    const now = options.now();
    if (form.grant_type === 'authorization_code') {
      const code = form.code ? codes.get(form.code) : undefined;
      if (form.code) codes.delete(form.code);
      if (!code || code.expiresAt < now || code.redirectUri !== form.redirect_uri) {
        return reply.code(400).send({ error: 'invalid_grant', error_description: 'Invalid authorization code' });
      }
    } else if (form.grant_type === 'refresh_token') {
      const expiresAt = form.refresh_token ? refreshTokens.get(form.refresh_token) : undefined;
      if (form.refresh_token) refreshTokens.delete(form.refresh_token);
      if (expiresAt === undefined || expiresAt <= now) {
        return reply.code(400).send({ error: 'invalid_grant', error_description: 'Invalid refresh token' });
      }
    } else {
      return reply.code(400).send({ error: 'unsupported_grant_type' });
    }
    const refreshToken = token('rt-');
    const accessToken = token('eyJ');
    refreshTokens.set(refreshToken, now + REFRESH_SECONDS * 1000);
    accessTokens.set(accessToken, now + ACCESS_SECONDS * 1000);
    return {
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: ACCESS_SECONDS,
      refresh_token: refreshToken,
      refresh_token_expires_in: REFRESH_SECONDS,
    };
  });

  /** Whether a Bearer token is good now. */
  function bearerValid(header: string | undefined): boolean {
    const value = /^Bearer (.+)$/.exec(header ?? '')?.[1];
    const expiresAt = value ? accessTokens.get(value) : undefined;
    return expiresAt !== undefined && expiresAt > options.now();
  }

  return {
    issueCode,
    bearerValid,
    /** Saxo revoking every access token early (a new sign-in elsewhere, an outage). */
    revokeAccessTokens: () => accessTokens.clear(),
  };
}
