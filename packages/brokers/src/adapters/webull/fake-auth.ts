// The Webull fake's gate, as Webull checks a request: a known x-app-key, a timestamp within
// 5 minutes of the fake's clock, a nonce not seen before, and x-signature recomputed over the
// exact request (the signed headers, the Host's name, the query and the body's digest) with the
// algorithm x-signature-algorithm names. For accounts with 2FA, GET /openapi/config says so and
// every other call needs a verified x-access-token (created, approved in the app, renewed).
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type SignatureAlgorithm, signature } from './signer.ts';

export interface AuthOptions {
  appKey: string;
  appSecret: string;
  now: () => number;
  /** 2FA on: the user approves a new token in the app after this many checks (0: at once). */
  twoFactor?: { approveAfterChecks: number };
}

const SKEW_MS = 5 * 60_000;
const TOKEN_MS = 15 * 24 * 60 * 60_000;
const TOKEN_PATHS = ['/openapi/auth/token/create', '/openapi/auth/token/check', '/openapi/auth/token/refresh'];

export const webullRefusal = (reply: FastifyReply, status: number, code: string, message: string) =>
  reply.code(status).send({ error_code: code, message });

interface FakeToken {
  expires: number;
  status: 'PENDING' | 'NORMAL' | 'INVALID' | 'EXPIRED';
  checks: number;
}

function queryOf(url: string): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [key, value] of new URL(url, 'http://fake').searchParams) {
    query[key] = query[key] === undefined ? value : `${query[key]}&${value}`;
  }
  return query;
}

const same = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

export function registerAuth(app: FastifyInstance, options: AuthOptions) {
  const nonces = new Set<string>();
  const tokens = new Map<string, FakeToken>();

  /** Why Webull refuses the request's signature, or undefined. */
  function signatureProblem(request: FastifyRequest, body: string): string | undefined {
    const header = (name: string) => String(request.headers[name] ?? '');
    if (header('x-app-key') !== options.appKey) return 'x-app-key is not valid';
    const algorithm = header('x-signature-algorithm');
    if (algorithm !== 'HMAC-SHA1' && algorithm !== 'HMAC-SHA256') return 'x-signature-algorithm is not supported';
    if (header('x-signature-version') !== '1.0') return 'x-signature-version is not supported';
    const timestamp = header('x-timestamp');
    const at = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/.test(timestamp) ? Date.parse(timestamp) : Number.NaN;
    // Words that do not tell a clock from keys (WIRE.md fixtures/error-unauthorized.response.json).
    if (!(Math.abs(at - options.now()) <= SKEW_MS)) return 'signature or token invalid';
    const nonce = header('x-signature-nonce');
    if (!nonce || nonces.has(nonce)) return 'x-signature-nonce is missing or was used before';
    const expected = signature({
      algorithm: algorithm as SignatureAlgorithm,
      host: header('host').replace(/:\d+$/, ''),
      path: request.url.split('?')[0] ?? '',
      query: queryOf(request.url),
      body: body === '' ? undefined : body,
      appKey: options.appKey,
      appSecret: options.appSecret,
      timestamp,
      nonce,
    });
    if (!same(expected, header('x-signature'))) return 'signature does not match';
    nonces.add(nonce);
    return undefined;
  }

  function tokenProblem(request: FastifyRequest): string | undefined {
    const path = request.url.split('?')[0] ?? '';
    if (!options.twoFactor || path === '/openapi/config' || TOKEN_PATHS.includes(path)) return undefined;
    const token = tokens.get(String(request.headers['x-access-token'] ?? ''));
    if (token?.status !== 'NORMAL' || token.expires <= options.now()) return 'x-access-token is invalid or expired';
    return undefined;
  }

  const answer = (token: string) => {
    const state = tokens.get(token);
    if (state && state.status !== 'NORMAL' && state.expires <= options.now()) state.status = 'EXPIRED';
    return { token, expires: state?.expires ?? 0, status: state?.status ?? 'INVALID' };
  };

  app.get('/openapi/config', async () => ({ token_check_enabled: options.twoFactor !== undefined }));

  app.post('/openapi/auth/token/create', async (request) => {
    const previous = String((request.body as { token?: unknown } | undefined)?.token ?? '');
    const known = tokens.get(previous);
    if (known && known.status === 'NORMAL' && known.expires > options.now()) return answer(previous);
    const token = randomBytes(20).toString('hex');
    // No approval asked (approveAfterChecks 0): verified at once, as Webull answers a trusted device.
    const status = options.twoFactor?.approveAfterChecks === 0 ? 'NORMAL' : 'PENDING';
    tokens.set(token, { expires: options.now() + TOKEN_MS, status, checks: 0 });
    return answer(token);
  });

  app.post('/openapi/auth/token/check', async (request) => {
    const token = String((request.body as { token?: unknown } | undefined)?.token ?? '');
    const state = tokens.get(token);
    if (state?.status === 'PENDING' && ++state.checks >= (options.twoFactor?.approveAfterChecks ?? 0))
      state.status = 'NORMAL';
    return answer(token);
  });

  app.post('/openapi/auth/token/refresh', async (request) => {
    const previous = String((request.body as { token?: unknown } | undefined)?.token ?? '');
    const state = tokens.get(previous);
    if (state?.status !== 'NORMAL' || state.expires <= options.now()) return answer(previous);
    tokens.delete(previous);
    const token = randomBytes(20).toString('hex');
    tokens.set(token, { expires: options.now() + TOKEN_MS, status: 'NORMAL', checks: 0 });
    return answer(token);
  });

  return {
    /** The gate of every request; answers 401 itself when Webull would. */
    authenticate(request: FastifyRequest, reply: FastifyReply, body: string): boolean {
      const problem = signatureProblem(request, body) ?? tokenProblem(request);
      if (problem) webullRefusal(reply, 401, problem.includes('token') ? 'TOKEN_INVALID' : 'UNAUTHORIZED', problem);
      return !problem;
    },
    /** The user revoked the approval in the Webull app. */
    revokeTokens: () => {
      for (const state of tokens.values()) state.status = 'INVALID';
    },
  };
}
