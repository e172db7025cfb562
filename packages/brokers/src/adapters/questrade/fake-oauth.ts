// The sign-in side of the Questrade protocol fake: a consent page that approves at once and
// redirects back with ?code=…&state=…, and /oauth2/token, which takes its parameters as a form
// or in the query string (Questrade's samples use the query). Refresh tokens work once: each
// answer brings a new one (and the API host), and the one used is gone. Access tokens last 30
// minutes on the fake's clock, on the API host their answer named; unused refresh tokens 7 days. Refusals are HTTP 400 "Bad Request"
// (the body is not documented).
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

const ACCESS_MS = 30 * 60_000;
const REFRESH_MS = 7 * 24 * 60 * 60_000;
const CODE_MS = 60_000;

export interface OAuthOptions {
  clientId: string;
  now: () => number;
  /** The API hosts token answers name: a path prefix of this server each ('' or '/api02'). */
  hosts: readonly string[];
  /** This server's origin. */
  origin: () => string;
}

const token = () => randomBytes(24).toString('base64url');

export function registerOAuth(app: FastifyInstance, options: OAuthOptions) {
  const codes = new Map<string, { redirectUri: string; expiresAt: number }>();
  const refreshTokens = new Map<string, { expiresAt: number; host: string }>();
  const accessTokens = new Map<string, { expiresAt: number; host: string }>();

  function issueCode(redirectUri: string): string {
    const code = token();
    codes.set(code, { redirectUri, expiresAt: options.now() + CODE_MS });
    return code;
  }

  app.get('/oauth2/authorize', async (request, reply) => {
    const query = request.query as Record<string, string | undefined>;
    if (query.client_id !== options.clientId || query.response_type !== 'code' || !query.redirect_uri)
      return reply.code(400).type('text/html').send('<html><body>Invalid request</body></html>');
    const target = new URL(query.redirect_uri);
    target.searchParams.set('code', issueCode(query.redirect_uri));
    if (query.state !== undefined) target.searchParams.set('state', query.state);
    return reply.redirect(target.toString(), 302);
  });

  app.post('/oauth2/token', async (request, reply) => {
    const params = {
      ...(request.query as Record<string, string>),
      ...((request.body ?? {}) as Record<string, string>),
    };
    const now = options.now();
    const bad = () => reply.code(400).type('text/plain').send('Bad Request');
    // A sign-in is served on the first host; each refresh moves to the next one.
    let host = options.hosts[0] ?? '';
    if (params.grant_type === 'authorization_code') {
      const code = params.code ? codes.get(params.code) : undefined;
      if (params.code) codes.delete(params.code);
      if (
        !code ||
        code.expiresAt < now ||
        code.redirectUri !== params.redirect_uri ||
        params.client_id !== options.clientId
      )
        return bad();
    } else if (params.grant_type === 'refresh_token') {
      const used = params.refresh_token ? refreshTokens.get(params.refresh_token) : undefined;
      if (!params.refresh_token || used === undefined || used.expiresAt <= now) return bad();
      refreshTokens.delete(params.refresh_token);
      host = options.hosts[(options.hosts.indexOf(used.host) + 1) % options.hosts.length] ?? host;
    } else return bad();
    const refresh = token();
    const access = token();
    refreshTokens.set(refresh, { expiresAt: now + REFRESH_MS, host });
    // The access token works on the API host its answer names only.
    accessTokens.set(access, { expiresAt: now + ACCESS_MS, host });
    return {
      access_token: access,
      token_type: 'Bearer',
      expires_in: ACCESS_MS / 1000,
      refresh_token: refresh,
      api_server: `${options.origin()}${host}/`,
    };
  });

  /** True when the Bearer header carries a live access token issued for this API host. */
  function checkBearer(header: string | undefined, host: string): boolean {
    const entry = accessTokens.get(/^Bearer (.+)$/.exec(header ?? '')?.[1] ?? '');
    return entry !== undefined && entry.expiresAt > options.now() && entry.host === host;
  }

  return { issueCode, checkBearer, revokeAccessTokens: () => accessTokens.clear() };
}
