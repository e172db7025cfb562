// The fake's login side, as Kite does it: the login page (signs in at once and redirects to the
// app's registered URL with ?request_token=…&action=login&type=login&status=success plus the
// redirect_params), the checksum-checked exchange POST /session/token (form), and the check of
// `Authorization: token api_key:access_token` on every API call. A token lasts until the next
// 6 AM IST on the fake's clock; a new login of the user on the app ends the earlier one.
import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { formatKiteTime, sessionExpiry } from './kite-time.ts';

export interface FakeUser {
  userId: string;
  userName: string;
  email: string;
}

export interface LoginOptions {
  apiKey: string;
  apiSecret: string;
  user: FakeUser;
  now: () => number;
}

const REQUEST_TOKEN_MS = 5 * 60_000;
const token = () => randomBytes(16).toString('hex');

export const kiteRefusal = (reply: FastifyReply, status: number, errorType: string, message: string) =>
  reply.code(status).send({ status: 'error', message, data: null, error_type: errorType });

export function registerLogin(app: FastifyInstance, options: LoginOptions) {
  const requestTokens = new Map<string, number>();
  const accessTokens = new Map<string, number>();
  let redirectUrl: string | undefined;

  function issueRequestToken(): string {
    const value = token();
    requestTokens.set(value, options.now() + REQUEST_TOKEN_MS);
    return value;
  }

  app.get('/connect/login', async (request, reply) => {
    const query = request.query as Record<string, string | undefined>;
    if (query.api_key !== options.apiKey || query.v !== '3')
      return reply.code(400).type('text/html').send('<html><body>Invalid `api_key` or version</body></html>');
    if (!redirectUrl)
      return reply.code(400).type('text/html').send('<html><body>No redirect URL is registered</body></html>');
    const target = new URL(redirectUrl);
    target.searchParams.set('action', 'login');
    target.searchParams.set('type', 'login');
    target.searchParams.set('status', 'success');
    target.searchParams.set('request_token', issueRequestToken());
    for (const [key, value] of new URLSearchParams(query.redirect_params ?? '')) target.searchParams.set(key, value);
    return reply.redirect(target.toString(), 302);
  });

  app.post('/session/token', async (request, reply) => {
    const form = (request.body ?? {}) as Record<string, string | undefined>;
    const { api_key: apiKey, request_token: requestToken = '', checksum } = form;
    if (apiKey !== options.apiKey) return kiteRefusal(reply, 403, 'InputException', 'Invalid `api_key`.');
    const expected = createHash('sha256')
      .update(options.apiKey + requestToken + options.apiSecret)
      .digest('hex');
    if (checksum !== expected) return kiteRefusal(reply, 403, 'TokenException', 'Invalid `checksum`.');
    const validUntil = requestTokens.get(requestToken);
    requestTokens.delete(requestToken);
    if (validUntil === undefined || validUntil < options.now())
      return kiteRefusal(reply, 403, 'TokenException', 'Token is invalid or has expired.');
    accessTokens.clear();
    const accessToken = token();
    accessTokens.set(accessToken, sessionExpiry(options.now()));
    const { user } = options;
    return {
      status: 'success',
      data: {
        user_type: 'individual',
        email: user.email,
        user_name: user.userName,
        user_shortname: user.userName.split(' ')[0],
        broker: 'ZERODHA',
        exchanges: ['NSE', 'NFO', 'BFO', 'CDS', 'BSE', 'MCX', 'BCD', 'MF'],
        products: ['CNC', 'NRML', 'MIS', 'BO', 'CO'],
        order_types: ['MARKET', 'LIMIT', 'SL', 'SL-M'],
        avatar_url: null,
        user_id: user.userId,
        api_key: options.apiKey,
        access_token: accessToken,
        public_token: token(),
        enctoken: token(),
        refresh_token: '',
        silo: '',
        login_time: formatKiteTime(options.now()),
        meta: { demat_consent: 'physical' },
      },
    };
  });

  app.delete('/session/token', async (request) => {
    const { access_token: accessToken } = request.query as Record<string, string | undefined>;
    if (accessToken) accessTokens.delete(accessToken);
    return { status: 'success', data: true };
  });

  return {
    issueRequestToken,
    /** The app's redirect URL, as registered in Kite's developer console. */
    registerCallback: (url: string) => {
      redirectUrl = url;
    },
    /** True when `Authorization: token api_key:access_token` names a live session. */
    isAuthorized(header: string | undefined): boolean {
      const match = /^token ([^:]+):(.+)$/.exec(header ?? '');
      const expiresAt = match?.[1] === options.apiKey ? accessTokens.get(match[2] ?? '') : undefined;
      return expiresAt !== undefined && expiresAt > options.now();
    },
    /** The user logged out or Kite ended the session early. */
    endSessions: () => accessTokens.clear(),
  };
}
