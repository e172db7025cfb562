// MetaApi over the shared HTTP client: the `auth-token` header on every call (no Bearer, no
// signing), MetaApi's error bodies {id, error, message, details?} read by their error name and
// detail code, and its two origins: provisioning (accounts, server search) and the trading API of
// the account's region. METATRADER_BASE_URL replaces both (a fake or a gateway serves both path sets).
import type { BrokerContext, BrokerSession } from '../../core/broker.ts';
import { BrokerError, checkAccountInConnection } from '../../core/errors.ts';
import { matchException } from '../../core/exceptions.ts';
import { createHttpClient, type HttpClient, type HttpResponse, namedError } from '../../core/http.ts';
import { messageOf } from '../../core/http-errors.ts';
import { asRecord, stringField } from '../../core/json-read.ts';
import { METATRADER_TITLE, metatraderDescriptor, PROVISIONING_URL, regionTradingUrl } from './descriptor.ts';

export type Platform = 'mt4' | 'mt5';

/** A connection's MetaApi account, from the session's secrets. */
export interface MetaApiLink {
  /** MetaApi's account id (`_id`), in every trading path. */
  metaApiId: string;
  region: string;
  platform: Platform;
  login: string;
  server: string;
  /** The user's own token for a linked account; else the site's (METATRADER_CLIENT_SECRET). */
  token: string;
}

export const fail = (kind: BrokerError['kind'], message: string, outcomeUnknown = false) =>
  new BrokerError(kind, METATRADER_TITLE, message, { outcomeUnknown });

/** The detail code of a MetaApi error body: "E_AUTH", or {code: "E_SRV_NOT_FOUND", …}. */
export function detailCode(body: unknown): string | undefined {
  const details = asRecord(body)?.details;
  return typeof details === 'string' ? details : stringField(details, 'code');
}

/** An error answer by its detail code, then its error name, through the descriptor's table. */
function metaApiError(response: HttpResponse, mutating: boolean): BrokerError | undefined {
  const { exceptions } = metatraderDescriptor;
  const kind =
    matchException(exceptions, detailCode(response.body)) ??
    matchException(exceptions, stringField(response.body, 'error'));
  if (!kind) return undefined;
  const message = stringField(response.body, 'message') ?? `HTTP ${response.status}`;
  // The status says whether MetaApi decided (core/http.ts): its names on a 5xx decide nothing.
  return namedError(METATRADER_TITLE, kind, message, response.status, mutating);
}

/**
 * A 4xx answer a caller accepted to read itself, as the error it is when it reads nothing more:
 * what the shared client would have thrown for it (its message through the table, then MetaApi's
 * names, else a refusal; 401, 403 and the inconclusive 4xx are left to the client).
 */
export function errorOf(response: HttpResponse, mutating = false): BrokerError {
  const message = messageOf(response.body);
  const named = matchException(metatraderDescriptor.exceptions, message);
  if (named && message) return namedError(METATRADER_TITLE, named, message, response.status, mutating);
  return (
    metaApiError(response, mutating) ??
    fail('InvalidOrder', stringField(response.body, 'message') ?? `HTTP ${response.status}`)
  );
}

/**
 * MetaApi refusing the site's token (401): this server's setup, not the user's credentials. Every
 * account the site added is reached with it: deactivating would make each of their users
 * reconnect, which cannot help until the operator corrects METATRADER_CLIENT_SECRET.
 */
function siteTokenRefused(response: HttpResponse): BrokerError {
  const reason = stringField(response.body, 'message') ?? `HTTP ${response.status}`;
  return fail(
    'BrokerUnavailable',
    `the broker connection is misconfigured on this server's side: its MetaApi token was refused (${reason}). Please contact support.`,
  );
}

export function metaApiClient(ctx: BrokerContext, baseUrl: string, token: string): HttpClient {
  const site = ctx.clientSecret !== undefined && token === ctx.clientSecret;
  return createHttpClient({
    brokerTitle: METATRADER_TITLE,
    baseUrl,
    ...(ctx.signal ? { signal: ctx.signal } : {}),
    headers: { 'auth-token': token },
    exceptions: metatraderDescriptor.exceptions,
    mapError: (response, mutating) =>
      site && response.status === 401 ? siteTokenRefused(response) : metaApiError(response, mutating),
  });
}

const isOverridden = (ctx: BrokerContext) => ctx.baseUrl !== '' && ctx.baseUrl !== PROVISIONING_URL;

export function provisioningClient(ctx: BrokerContext, token: string): HttpClient {
  return metaApiClient(ctx, isOverridden(ctx) ? ctx.baseUrl : PROVISIONING_URL, token);
}

export function tradingClient(ctx: BrokerContext, link: MetaApiLink): HttpClient {
  return metaApiClient(ctx, isOverridden(ctx) ? ctx.baseUrl : regionTradingUrl(link.region), link.token);
}

export const accountPath = (metaApiId: string) => `/users/current/accounts/${encodeURIComponent(metaApiId)}`;

/** The site's MetaApi token, or a refusal saying how to connect without it. */
export function siteToken(ctx: BrokerContext): string {
  if (ctx.clientSecret) return ctx.clientSecret;
  throw fail(
    'AuthenticationError',
    'this site has no MetaApi token (METATRADER_CLIENT_SECRET). Connect an account you added at MetaApi ' +
      'yourself: its MetaApi account id as the login, your MetaApi API token as the password',
  );
}

/** The MetaApi account of `accountId` in this connection; refused when it is not part of it. */
export function linkOf(ctx: BrokerContext, session: BrokerSession, accountId: string): MetaApiLink {
  const { metaApiId, region, platform, login, server, token } = session.secrets;
  checkAccountInConnection(METATRADER_TITLE, session, accountId);
  if (!metaApiId || !region || !login || !server || (platform !== 'mt4' && platform !== 'mt5'))
    throw fail('AuthenticationError', 'reconnect: the connection is incomplete');
  // An account the site added is reached with the site's token: without it the server's setup is
  // missing, not the user's credentials, and the connection must not be deactivated for it.
  if (!token && !ctx.clientSecret)
    throw fail('BrokerUnavailable', 'this site has no MetaApi token (METATRADER_CLIENT_SECRET) set');
  return { metaApiId, region, platform, login, server, token: token ?? siteToken(ctx) };
}

/** How long MetaApi asks to wait: Retry-After (seconds or a date), else metadata.recommendedRetryTime. */
export function retryAfterMs(response: HttpResponse, now: number, fallbackMs: number): number {
  const header = response.headers.get('retry-after');
  if (header && /^\d+(\.\d+)?$/.test(header.trim())) return Number(header) * 1000;
  const at = header ? Date.parse(header) : Number.NaN;
  if (Number.isFinite(at)) return Math.max(0, at - now);
  const recommended = Date.parse(stringField(asRecord(response.body)?.metadata, 'recommendedRetryTime') ?? '');
  return Number.isFinite(recommended) ? Math.max(0, recommended - now) : fallbackMs;
}

/** Waits, or rejects when the caller's deadline passes first. */
export function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(fail('BrokerUnavailable', 'no answer before the deadline'));
    const timer = setTimeout(done, ms);
    function done() {
      signal?.removeEventListener('abort', abort);
      resolve();
    }
    function abort() {
      clearTimeout(timer);
      reject(fail('BrokerUnavailable', 'no answer before the deadline'));
    }
    signal?.addEventListener('abort', abort, { once: true });
  });
}
