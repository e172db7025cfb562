// The fake's OAuth 1.0a side, as E*TRADE checks it (WIRE.md §1): every request signed HMAC-SHA1
// over method, URL and query (oauth1.ts, recomputed here from the request as received), the
// timestamp within 5 minutes, a nonce used once, request tokens living 5 minutes, access tokens
// inactive after 2 hours without a request and ended at midnight US Eastern. Refusals as E*TRADE
// words them: 401 "oauth_problem=…" (form text on /oauth, {"Error":{"message":…}} on .json paths).
// The consent page approves at once: with a callback registered for the consumer key it redirects
// there with oauth_token and oauth_verifier, else it shows the code; a request token approved
// twice gets E*TRADE's odd verifier "Token has already been Authorized".
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { nextEasternMidnight } from './eastern.ts';
import { hmacSha1, parseAuthorization, sameSignature, signatureBaseString } from './oauth1.ts';
import { IDLE_LIMIT_MS } from './tokens.ts';

const REQUEST_TOKEN_MS = 5 * 60_000;
const CLOCK_SKEW_MS = 5 * 60_000;
export const ALREADY_AUTHORIZED = 'Token has already been Authorized';

export interface FakeApp {
  consumerKey: string;
  consumerSecret: string;
}

interface RequestToken {
  secret: string;
  consumerKey: string;
  issuedAt: number;
  verifier?: string;
}

interface AccessToken {
  secret: string;
  consumerKey: string;
  lastUsed: number;
  expiresAt: number;
}

const token = () => randomBytes(24).toString('base64');
const VERIFIER_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const verifierCode = () => [...randomBytes(5)].map((byte) => VERIFIER_CHARS[byte % VERIFIER_CHARS.length]).join('');

export function registerOAuth(app: FastifyInstance, options: { apps: FakeApp[]; now: () => number }) {
  const { now } = options;
  const apps = new Map(options.apps.map((item) => [item.consumerKey, item]));
  const callbacks = new Map<string, string>();
  const requestTokens = new Map<string, RequestToken>();
  const accessTokens = new Map<string, AccessToken>();
  const nonces = new Set<string>();

  /** Why E*TRADE refuses the request's signature and token, or undefined when it is good. */
  function problemOf(request: FastifyRequest): string | undefined {
    const oauth = parseAuthorization(request.headers.authorization);
    if (!oauth) return 'parameter_absent';
    const consumer = apps.get(oauth.oauth_consumer_key ?? '');
    if (!consumer) return 'consumer_key_unknown';
    if (oauth.oauth_signature_method !== 'HMAC-SHA1') return 'signature_method_rejected';
    const timestamp = Number(oauth.oauth_timestamp) * 1000;
    if (!Number.isFinite(timestamp) || Math.abs(timestamp - now()) > CLOCK_SKEW_MS) return 'timestamp_refused';
    const nonce = `${consumer.consumerKey}:${oauth.oauth_timestamp}:${oauth.oauth_nonce ?? ''}`;
    if (!oauth.oauth_nonce || nonces.has(nonce)) return 'nonce_used';
    const path = request.url.split('?')[0] ?? '';
    let tokenSecret = '';
    if (path === '/oauth/request_token') {
      if (oauth.oauth_callback !== 'oob') return 'parameter_rejected';
    } else if (path === '/oauth/access_token') {
      const pending = requestTokens.get(oauth.oauth_token ?? '');
      if (!pending || pending.consumerKey !== consumer.consumerKey) return 'token_rejected';
      if (now() - pending.issuedAt > REQUEST_TOKEN_MS) return 'token_expired';
      if (!pending.verifier || pending.verifier !== oauth.oauth_verifier) return 'verifier_invalid';
      tokenSecret = pending.secret;
    } else {
      const access = accessTokens.get(oauth.oauth_token ?? '');
      if (!access || access.consumerKey !== consumer.consumerKey) return 'token_rejected';
      if (now() >= access.expiresAt) return 'token_expired';
      // An idle token answers nothing until renewed; renewing is what it may still do.
      if (path !== '/oauth/renew_access_token' && now() - access.lastUsed > IDLE_LIMIT_MS) return 'token_rejected';
      tokenSecret = access.secret;
    }
    const { oauth_signature: signature = '', realm: _realm, ...signed } = oauth;
    const url = new URL(`http://${request.headers.host}${request.url}`);
    const expected = hmacSha1(signatureBaseString(request.method, url, signed), consumer.consumerSecret, tokenSecret);
    if (!sameSignature(signature, expected)) return 'signature_invalid';
    nonces.add(nonce);
    return undefined;
  }

  /** Checks the request; answers 401 and returns false when E*TRADE would refuse it. */
  function authenticate(request: FastifyRequest, reply: FastifyReply): boolean {
    const path = request.url.split('?')[0] ?? '';
    if (path === '/e/t/etws/authorize') return true;
    const problem = problemOf(request);
    if (problem) {
      const text = `oauth_problem=${problem}`;
      if (path.endsWith('.json')) reply.code(401).send({ Error: { message: text } });
      else reply.code(401).type('application/x-www-form-urlencoded').send(text);
      return false;
    }
    const access = accessTokens.get(parseAuthorization(request.headers.authorization)?.oauth_token ?? '');
    if (access) access.lastUsed = now();
    return true;
  }

  const form = (reply: FastifyReply, fields: Record<string, string>) =>
    reply.type('application/x-www-form-urlencoded').send(new URLSearchParams(fields).toString());
  const tokenOf = (request: FastifyRequest) => parseAuthorization(request.headers.authorization)?.oauth_token ?? '';

  app.get('/oauth/request_token', async (request, reply) => {
    const consumerKey = parseAuthorization(request.headers.authorization)?.oauth_consumer_key ?? '';
    const issued = token();
    requestTokens.set(issued, { secret: token(), consumerKey, issuedAt: now() });
    return form(reply, {
      oauth_token: issued,
      oauth_token_secret: requestTokens.get(issued)?.secret ?? '',
      oauth_callback_confirmed: String(callbacks.has(consumerKey)),
    });
  });

  app.get('/e/t/etws/authorize', async (request, reply) => {
    const { key = '', token: requestToken = '' } = request.query as Record<string, string | undefined>;
    const pending = requestTokens.get(requestToken);
    if (!pending || pending.consumerKey !== key || now() - pending.issuedAt > REQUEST_TOKEN_MS) {
      return reply.code(400).type('text/html').send('<html><body>Invalid request token</body></html>');
    }
    const verifier = pending.verifier ? ALREADY_AUTHORIZED : verifierCode();
    pending.verifier ??= verifier;
    const callback = callbacks.get(key);
    if (!callback) {
      return reply.type('text/html').send(`<html><body>Authorization complete. Code: ${verifier}</body></html>`);
    }
    const target = new URL(callback);
    target.searchParams.set('oauth_token', requestToken);
    target.searchParams.set('oauth_verifier', verifier);
    return reply.redirect(target.toString(), 302);
  });

  app.get('/oauth/access_token', async (request, reply) => {
    const requestToken = tokenOf(request);
    const pending = requestTokens.get(requestToken);
    requestTokens.delete(requestToken);
    const issued = token();
    const secret = token();
    accessTokens.set(issued, {
      secret,
      consumerKey: pending?.consumerKey ?? '',
      lastUsed: now(),
      expiresAt: nextEasternMidnight(now()),
    });
    return form(reply, { oauth_token: issued, oauth_token_secret: secret });
  });

  app.get('/oauth/renew_access_token', async (_request, reply) =>
    reply.type('text/plain').send('Access Token has been renewed'),
  );

  app.get('/oauth/revoke_access_token', async (request, reply) => {
    accessTokens.delete(tokenOf(request));
    return reply.type('text/plain').send('Revoked Access Token');
  });

  return {
    authenticate,
    /** The callback E*TRADE keeps for a consumer key (registered with E*TRADE, not per request). */
    registerCallback(consumerKey: string, url: string) {
      callbacks.set(consumerKey, url);
    },
    /** The user approving the latest request token of the app: its verifier (replay, tests). */
    approveLatest(consumerKey: string): { token: string; verifier: string } | undefined {
      const latest = [...requestTokens].filter(([, item]) => item.consumerKey === consumerKey).at(-1);
      if (!latest) return undefined;
      latest[1].verifier ??= verifierCode();
      return { token: latest[0], verifier: latest[1].verifier };
    },
    /** An access token ends, as each does at midnight US Eastern: refused, renewal included. */
    endDay(accessToken: string) {
      const access = accessTokens.get(accessToken);
      if (access) access.expiresAt = now();
    },
    /** Every access token turns idle, as after 2 hours without a request. */
    idleAll() {
      for (const access of accessTokens.values()) access.lastUsed = -Infinity;
    },
  };
}
