// What OAuth brokers share: one call to the token endpoint, and the access tokens of a stored
// session kept fresh between the server's refreshes. The server refreshes a session at its
// refreshAt and stores the result; an access token renewed in between (a call that found it
// due, or a read refused with 401) is renewed through the server's refresh where the context
// offers one (ctx.refreshSession: stored, so a rotated refresh token survives a restart and is
// seen by other instances), and kept in memory, by refresh token, for the calls that follow.
// Orders are never sent twice: only reads are retried after a 401, and any call refused with a
// token another instance has replaced since is sent once more with the stored one
// (resendWithStoredToken: a refused token placed nothing).
import type { BrokerContext, BrokerSession } from './broker.ts';
import { BrokerError, isBrokerError } from './errors.ts';
import { createHttpClient, type HttpResponse } from './http.ts';
import { isErrorPage, messageOf } from './http-errors.ts';
import { decimalField, stringField } from './json-read.ts';

export interface TokenRequest {
  brokerTitle: string;
  ctx: BrokerContext;
  path: string;
  /** The grant as the broker takes it: JSON, a form, or the query of a GET (cTrader). */
  json?: Record<string, string>;
  form?: Record<string, string>;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  /** The access token's lifetime when the answer names none (`expires_in`). */
  defaultLifetimeMs: number;
  /** Where the token fields sit when the broker wraps its answer (Kite: `{"status", "data": {…}}`). */
  unwrap?: (body: unknown) => unknown;
  fetch?: typeof fetch;
}

export interface TokenAnswer {
  accessToken: string;
  refreshToken: string | undefined;
  expiresInMs: number;
  /** The whole answer, for fields of the broker's own (Questrade's api_server, Kite's user). */
  body: unknown;
}

/** What the token endpoint answers when it refuses a grant or the app (RFC 6749 §5.2), besides 429. */
const REFUSAL_STATUSES = new Set([400, 401, 403, 429]);

/** A JSON answer carrying an error (OAuth's `error`, a broker's `message`), not a page or nothing. */
function errorBody(body: unknown): boolean {
  return typeof body === 'object' && body !== null && messageOf(body) !== undefined;
}

/**
 * Other 4xx answers (a gateway's 404, 408) are no refusal of the grant: an outage, so a refresh
 * meeting one does not deactivate a working connection. Nor is a 400 or 401 that is only an error
 * page or empty (a proxy's or a CDN's), nor a 403 without an error body (a firewall's page): the
 * broker refuses a grant in words (OAuth's JSON `invalid_grant`, RFC 6749 §5.2; Questrade's text
 * "Bad Request"; Kite's 403 TokenException in JSON, zerodha/WIRE.md §8).
 */
function outage(title: string, response: HttpResponse): BrokerError | undefined {
  const { status, body } = response;
  if ((status === 400 || status === 401) && isErrorPage(body))
    return new BrokerError('BrokerUnavailable', title, `HTTP ${status}`);
  if (status === 403 && !errorBody(body)) return new BrokerError('BrokerUnavailable', title, `HTTP ${status}`);
  if (status < 400 || status >= 500 || REFUSAL_STATUSES.has(status)) return undefined;
  return new BrokerError('BrokerUnavailable', title, messageOf(body) ?? `HTTP ${status}`);
}

/**
 * RFC 6749 §5.2 errors that refuse this server's app, not the user: invalid_client (its id or
 * secret wrong, rotated, or the app suspended), unauthorized_client (the app not allowed this
 * grant type), unsupported_grant_type (a grant the broker does not take from it).
 */
const APP_ERRORS = new Set(['invalid_client', 'unauthorized_client', 'unsupported_grant_type']);

/**
 * A grant refused for this server's app is no refusal of the user's sign-in or grant: on a
 * refresh, deactivating would make every user of the broker reconnect once the operator fixes
 * it; on a connect, signing in again cannot help. An outage until the operator corrects it.
 */
function appRefused(title: string, response: HttpResponse): BrokerError | undefined {
  const error = stringField(response.body, 'error');
  if (!error || !APP_ERRORS.has(error)) return undefined;
  return new BrokerError(
    'BrokerUnavailable',
    title,
    error === 'invalid_client'
      ? "the broker connection is misconfigured on this server's side: its app credentials were refused (invalid_client). Please contact support."
      : `the broker connection is misconfigured on this server's side: its app was refused (${error}). Please contact support.`,
  );
}

/**
 * The broker's own words where its gateway wrapped them, as quoted JSON, in a message of its own
 * (Schwab: `400 Bad Request: "{\"error_description\":\"Failed refresh token authentication\",…}"`):
 * a refusal reaches the user (the deactivation's reason) as they read.
 */
function refusalText(text: string): string {
  const inner = text.slice(text.indexOf('{'), text.lastIndexOf('}') + 1);
  if (!inner) return text;
  for (const json of [inner, inner.replace(/\\"/g, '"')]) {
    try {
      const found = messageOf(JSON.parse(json));
      if (found) return found;
    } catch {
      // Not JSON (or clipped): the text as it is.
    }
  }
  return text;
}

const refused = (title: string, text: string, cause?: unknown) =>
  new BrokerError(
    'AuthenticationError',
    title,
    `sign-in refused (${refusalText(text)}); reconnect`,
    cause === undefined ? undefined : { cause },
  );

/** One call to the token endpoint; a refusal there (400 invalid_grant, …) means signing in again. */
export async function requestTokens(request: TokenRequest): Promise<TokenAnswer> {
  const { brokerTitle: title, ctx } = request;
  const client = createHttpClient({
    brokerTitle: title,
    baseUrl: ctx.baseUrl,
    ...(ctx.signal ? { signal: ctx.signal } : {}),
    ...(request.fetch ? { fetch: request.fetch } : {}),
    ...(request.headers ? { headers: request.headers } : {}),
    mapError: (response) => appRefused(title, response) ?? outage(title, response),
  });
  try {
    // A token request changes nothing a retry could duplicate; it is still never retried here.
    const answer = await client.request({
      method: request.query ? 'GET' : 'POST',
      path: request.path,
      ...(request.query
        ? { query: request.query }
        : request.json
          ? { json: request.json }
          : { form: request.form ?? {} }),
      mutating: false,
    });
    const body = request.unwrap ? request.unwrap(answer.body) : answer.body;
    // Field names as OAuth spells them, or in camel case (cTrader: accessToken, expiresIn).
    const accessToken = stringField(body, 'access_token') ?? stringField(body, 'accessToken');
    if (!accessToken) {
      // A refusal may come as 200 with an error body (cTrader: {"errorCode": "…", "description": "…"});
      // a text or HTML page (a maintenance page) is an outage.
      const refusal = errorBody(body) ? messageOf(body) : stringField(body, 'errorCode');
      if (refusal) throw refused(title, refusal);
      throw new BrokerError('BrokerUnavailable', title, 'no access token in the answer');
    }
    const expiresIn = decimalField(body, 'expires_in') ?? decimalField(body, 'expiresIn');
    return {
      accessToken,
      refreshToken: stringField(body, 'refresh_token') ?? stringField(body, 'refreshToken'),
      expiresInMs: expiresIn ? expiresIn * 1000 : request.defaultLifetimeMs,
      body: answer.body,
    };
  } catch (error) {
    if (isBrokerError(error) && error.kind === 'InvalidOrder') {
      throw refused(title, error.brokerMessage, error);
    }
    throw error;
  }
}

/**
 * The session stored now when the broker refused the token used (`error` an AuthenticationError)
 * and the stored session holds another one: replaced by a refresh made elsewhere. Undefined
 * otherwise, or when the stored session cannot be read (the refusal then stands).
 */
export async function replacedSession(
  ctx: BrokerContext,
  error: unknown,
  used: string | undefined,
  tokenOf: (session: BrokerSession) => string | undefined,
): Promise<BrokerSession | undefined> {
  if (!ctx.storedSession || !isBrokerError(error) || error.kind !== 'AuthenticationError') return undefined;
  // A refusal that may have left an order behind (an id beside it, an unknown outcome) is no
  // refused token: never sent again.
  if (error.outcomeUnknown || error.brokerOrderId !== undefined) return undefined;
  try {
    const stored = await ctx.storedSession();
    const token = tokenOf(stored);
    return token && token !== used ? stored : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Runs `send` (one request) with `session`; when the broker refuses its token and the stored
 * session holds another (a refresh by another server instance replaced it), once more with the
 * stored one. Sound for orders: every token broker refuses a token (HTTP 401, FOREX.com's
 * InvalidSession) before it reads the request, so the refused one placed nothing (WIRE.md §8).
 */
export async function resendWithStoredToken<R>(
  ctx: BrokerContext,
  session: BrokerSession,
  tokenOf: (session: BrokerSession) => string | undefined,
  send: (session: BrokerSession) => Promise<R>,
): Promise<R> {
  try {
    return await send(session);
  } catch (error) {
    const stored = await replacedSession(ctx, error, tokenOf(session), tokenOf);
    if (!stored) throw error;
    return send(stored);
  }
}

/**
 * The requests of one client on `session` (Questrade, Tradovate, Webull: one call each), each sent
 * through resendWithStoredToken; once the stored session served, the client keeps to it.
 */
export function sendingWithStoredToken<A, R>(
  ctx: BrokerContext,
  session: BrokerSession,
  tokenOf: (session: BrokerSession) => string | undefined,
  send: (session: BrokerSession, request: A) => Promise<R>,
): (request: A) => Promise<R> {
  let current = session;
  return (request) =>
    resendWithStoredToken(ctx, current, tokenOf, async (used) => {
      const answer = await send(used, request);
      current = used;
      return answer;
    });
}

export interface AccessTokens {
  accessToken: string;
  refreshToken: string;
  accessExpiresAt: number;
}

/** When tokens are due for renewal: `marginMs` before the access expiry, or the broker's own rule. */
type RenewalRule<T> = { marginMs: number; dueAt?: never } | { dueAt(tokens: T): number; marginMs?: never };

export type TokenKeeperOptions<T extends AccessTokens> = RenewalRule<T> & {
  now(ctx: BrokerContext): number;
  /** The tokens a stored session holds. */
  read(session: BrokerSession): T;
  /** New tokens from the broker. */
  renew(ctx: BrokerContext, tokens: T, now: number): Promise<T>;
  /** When a kept renewal may be forgotten (its sign-in lapsed); default: its access expiry. */
  forgetAt?(tokens: T): number;
};

export interface TokenKeeper<T extends AccessTokens> {
  /** Renews the access token now (one renewal at a time per connection). */
  refresh(ctx: BrokerContext, session: BrokerSession): Promise<T>;
  /**
   * Runs `send` with a fresh access token; a read refused with 401 refreshes once and runs again,
   * an order only when the stored session holds another token (replacedSession).
   */
  authorized<R>(
    ctx: BrokerContext,
    session: BrokerSession,
    kind: 'read' | 'order',
    send: (tokens: T) => Promise<R>,
  ): Promise<R>;
}

export function createTokenKeeper<T extends AccessTokens>(options: TokenKeeperOptions<T>): TokenKeeper<T> {
  const renewed = new Map<string, T>();
  const pending = new Map<string, Promise<T>>();
  const forgetAt = options.forgetAt ?? ((tokens: T) => tokens.accessExpiresAt);
  const { marginMs } = options;
  const dueAt = options.dueAt ?? ((tokens: T) => tokens.accessExpiresAt - (marginMs ?? 0));

  function current(session: BrokerSession): T {
    const stored = options.read(session);
    const kept = renewed.get(stored.refreshToken);
    return kept && kept.accessExpiresAt > stored.accessExpiresAt ? kept : stored;
  }

  function refresh(ctx: BrokerContext, session: BrokerSession): Promise<T> {
    // The server renews (one renewal per connection, across instances) and stores the result;
    // its renewal comes back here without refreshSession, so this does not wait on itself.
    if (ctx.refreshSession) {
      const stored = options.read(session).refreshToken;
      return ctx.refreshSession().then((renewedSession) => {
        const fresh = options.read(renewedSession);
        renewed.set(stored, fresh);
        return fresh;
      });
    }
    const tokens = current(session);
    const running = pending.get(tokens.refreshToken);
    if (running) return running;
    const next = options
      .renew(ctx, tokens, options.now(ctx))
      .then((fresh) => {
        // Lapsed entries go, so the map holds about one renewal per active connection.
        for (const [key, known] of renewed) if (forgetAt(known) <= options.now(ctx)) renewed.delete(key);
        renewed.set(tokens.refreshToken, fresh);
        return fresh;
      })
      .finally(() => pending.delete(tokens.refreshToken));
    pending.set(tokens.refreshToken, next);
    return next;
  }

  return {
    refresh,
    async authorized(ctx, session, kind, send) {
      let tokens = current(session);
      // Proactive: an order must never meet an expired token, since it is not sent twice. A
      // renewal the broker cannot make now (its token service down or busy) leaves an access
      // token that has not expired yet good for this call; a refused renewal stands.
      if (options.now(ctx) >= dueAt(tokens)) {
        try {
          tokens = await refresh(ctx, session);
        } catch (error) {
          const outage = isBrokerError(error) && (error.kind === 'BrokerUnavailable' || error.kind === 'RateLimited');
          if (!outage || options.now(ctx) >= tokens.accessExpiresAt) throw error;
        }
      }
      try {
        return await send(tokens);
      } catch (error) {
        if (kind === 'order') {
          // Replaced by another instance's refresh: the stored token, once (nothing was placed).
          const stored = await replacedSession(ctx, error, tokens.accessToken, (s) => options.read(s).accessToken);
          if (!stored) throw error;
          return send(options.read(stored));
        }
        if (!isBrokerError(error) || error.kind !== 'AuthenticationError') throw error;
        // Revoked or expired early: one refresh (which fails if the grant is gone), one more try.
        return send(await refresh(ctx, session));
      }
    },
  };
}
