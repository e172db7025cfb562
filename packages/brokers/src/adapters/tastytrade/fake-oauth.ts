// The fake's OAuth side: tastytrade's consent page (approves at once and redirects back with
// ?code=…&state=…), the JSON token endpoint, and Bearer checks for the API. Access tokens live
// 15 minutes on the injected clock; refresh tokens until their grant is revoked. Refusals in the
// OAuth shape ({"error":"invalid_grant","error_description":"…"}; the fake's wording).
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { TOKEN_SCHEMA } from './fake-schema.ts';

const ACCESS_MS = 15 * 60_000;
const CODE_MS = 5 * 60_000;

export interface OAuthOptions {
  clientId: string;
  clientSecret: string;
  now: () => number;
}

const token = (prefix: string) => `${prefix}${randomBytes(24).toString('base64url')}`;

export function registerOAuth(app: FastifyInstance, options: OAuthOptions) {
  const codes = new Map<string, { redirectUri: string; expiresAt: number }>();
  const grants = new Set<string>();
  const accessTokens = new Map<string, number>();

  function issueCode(redirectUri: string): string {
    const code = token('');
    codes.set(code, { redirectUri, expiresAt: options.now() + CODE_MS });
    return code;
  }

  /** A grant made on tastytrade's site ("Create Grant"): its refresh token. */
  function issueGrant(): string {
    const refresh = token('rt.');
    grants.add(refresh);
    return refresh;
  }

  app.get('/auth.html', async (request, reply) => {
    const query = request.query as Record<string, string | undefined>;
    const scopes = query.scope?.split(' ') ?? [];
    if (query.client_id !== options.clientId || query.response_type !== 'code' || !query.redirect_uri) {
      return reply.code(400).type('text/html').send('<html><body>Invalid authorization request</body></html>');
    }
    const target = new URL(query.redirect_uri);
    if (!scopes.includes('trade')) target.searchParams.set('error', 'invalid_scope');
    else target.searchParams.set('code', issueCode(query.redirect_uri));
    if (query.state !== undefined) target.searchParams.set('state', query.state);
    return reply.redirect(target.toString(), 302);
  });

  app.post('/oauth/token', { schema: { body: TOKEN_SCHEMA }, attachValidation: true }, async (request, reply) => {
    const form = (request.body ?? {}) as Record<string, string | undefined>;
    if (request.validationError) {
      return reply.code(400).send({ error: 'invalid_request', error_description: request.validationError.message });
    }
    if (form.client_secret !== options.clientSecret) {
      return reply.code(401).send({ error: 'invalid_client', error_description: 'Client authentication failed' });
    }
    const now = options.now();
    let refreshToken: string | undefined;
    if (form.grant_type === 'authorization_code') {
      const code = form.code ? codes.get(form.code) : undefined;
      if (form.code) codes.delete(form.code);
      if (
        !code ||
        code.expiresAt < now ||
        code.redirectUri !== form.redirect_uri ||
        form.client_id !== options.clientId
      ) {
        return reply.code(400).send({ error: 'invalid_grant', error_description: 'Invalid authorization code' });
      }
      refreshToken = issueGrant();
    } else if (!form.refresh_token || !grants.has(form.refresh_token)) {
      return reply.code(400).send({ error: 'invalid_grant', error_description: 'Grant revoked or invalid' });
    }
    const accessToken = token('at.');
    accessTokens.set(accessToken, now + ACCESS_MS);
    return {
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: ACCESS_MS / 1000,
      ...(refreshToken ? { refresh_token: refreshToken } : {}),
    };
  });

  /** Why an API call is refused, or undefined when its Bearer token is good. */
  function checkBearer(header: string | undefined): string | undefined {
    const value = /^Bearer (.+)$/.exec(header ?? '')?.[1];
    const expiresAt = value ? accessTokens.get(value) : undefined;
    if (expiresAt === undefined || expiresAt <= options.now()) return 'Token is invalid or expired';
    return undefined;
  }

  return {
    issueCode,
    issueGrant,
    checkBearer,
    /** Access tokens stop working before their time (tastytrade may revoke them). */
    revokeAccessTokens: () => accessTokens.clear(),
    /** The user removed the grant on tastytrade's site. */
    revokeGrant: (refreshToken: string) => grants.delete(refreshToken),
    grants: () => [...grants],
  };
}
