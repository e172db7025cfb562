// Saxo's OAuth 2.0 authorization code flow (WIRE.md §1). The authorization server is not the API's
// host: sim.logonvalidation.net for SIM, live.logonvalidation.net for LIVE (a fake or gateway
// named by SAXO_BASE_URL serves both at its origin). The token endpoint takes the app's key and
// secret as HTTP Basic and a form, and rotates the refresh token on every refresh:
//   POST /token grant_type=authorization_code&code=…&redirect_uri=…
//   POST /token grant_type=refresh_token&refresh_token=…&redirect_uri=…
//   → {"access_token","token_type":"Bearer","expires_in":1200,"refresh_token","refresh_token_expires_in":3600}
// The refresh token's own lifetime is the session's expiry; each refresh moves it on.
import type { AuthorizationRequest, BrokerContext, BrokerSecrets } from '../../core/broker.ts';
import { BrokerError } from '../../core/errors.ts';
import { decimalField } from '../../core/json-read.ts';
import { requestTokens } from '../../core/oauth-tokens.ts';
import { SAXO_BASE_URL, SAXO_SIM_URL, SAXO_TITLE } from './descriptor.ts';

const AUTH_SERVERS: Record<string, string> = {
  [SAXO_BASE_URL]: 'https://live.logonvalidation.net',
  [SAXO_SIM_URL]: 'https://sim.logonvalidation.net',
};
/** When an answer names no lifetime (Saxo's usual: 20 minutes, the refresh token an hour). */
const ACCESS_TOKEN_LIFETIME_MS = 20 * 60_000;
const REFRESH_TOKEN_LIFETIME_MS = 60 * 60_000;
/** Renew this long before the access token runs out. */
export const REFRESH_MARGIN_MS = 2 * 60_000;

export interface SaxoTokens {
  accessToken: string;
  refreshToken: string;
  accessExpiresAt: number;
  refreshExpiresAt: number;
}

const authError = (message: string) => new BrokerError('AuthenticationError', SAXO_TITLE, message);
/**
 * This server's own setup missing (the app's key and secret, PUBLIC_URL): no refusal of the user's
 * sign-in, so a refresh meeting it does not deactivate the connection; the operator fixes it.
 */
const notConfigured = (message: string) => new BrokerError('BrokerUnavailable', SAXO_TITLE, message);

export function tokensOf(secrets: BrokerSecrets): SaxoTokens {
  const { accessToken, refreshToken } = secrets;
  if (!accessToken || !refreshToken) throw authError('not signed in; connect again');
  return {
    accessToken,
    refreshToken,
    accessExpiresAt: Number(secrets.accessExpiresAt ?? 0),
    refreshExpiresAt: Number(secrets.refreshExpiresAt ?? 0),
  };
}

export function tokenSecrets(tokens: SaxoTokens): BrokerSecrets {
  return {
    accessToken: tokens.accessToken,
    refreshToken: tokens.refreshToken,
    accessExpiresAt: String(tokens.accessExpiresAt),
    refreshExpiresAt: String(tokens.refreshExpiresAt),
  };
}

/** The authorization server of the API's environment (the origin of an overriding base URL). */
export function authServer(baseUrl: string): string {
  return AUTH_SERVERS[baseUrl] ?? new URL(baseUrl).origin;
}

function app(ctx: BrokerContext): { clientId: string; clientSecret: string; redirectUrl: string } {
  const { clientId, clientSecret, redirectUrl } = ctx;
  if (!clientId || !clientSecret) throw notConfigured('SAXO_CLIENT_ID and SAXO_CLIENT_SECRET are not set');
  if (!redirectUrl) throw notConfigured('PUBLIC_URL is not set');
  return { clientId, clientSecret, redirectUrl };
}

export function authorizationUrl(ctx: BrokerContext, state: string): AuthorizationRequest {
  const { clientId, redirectUrl } = app(ctx);
  const url = new URL(`${authServer(ctx.baseUrl)}/authorize`);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirectUrl,
    state,
  }).toString();
  return { requestUrl: url.toString() };
}

async function tokenCall(ctx: BrokerContext, form: Record<string, string>, now: number, fetchImpl?: typeof fetch) {
  const { clientId, clientSecret } = app(ctx);
  const answer = await requestTokens({
    brokerTitle: SAXO_TITLE,
    ctx,
    path: `${authServer(ctx.baseUrl)}/token`,
    form,
    headers: { authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}` },
    defaultLifetimeMs: ACCESS_TOKEN_LIFETIME_MS,
    ...(fetchImpl ? { fetch: fetchImpl } : {}),
  });
  if (!answer.refreshToken) throw new BrokerError('BrokerUnavailable', SAXO_TITLE, 'no refresh token in the answer');
  const refreshIn = decimalField(answer.body, 'refresh_token_expires_in');
  return {
    accessToken: answer.accessToken,
    refreshToken: answer.refreshToken,
    accessExpiresAt: now + answer.expiresInMs,
    refreshExpiresAt: now + (refreshIn !== undefined ? refreshIn * 1000 : REFRESH_TOKEN_LIFETIME_MS),
  };
}

export function exchangeCode(ctx: BrokerContext, code: string, now: number, fetchImpl?: typeof fetch) {
  return tokenCall(ctx, { grant_type: 'authorization_code', code, redirect_uri: app(ctx).redirectUrl }, now, fetchImpl);
}

/** New tokens; Saxo's new refresh token replaces the old one, which no longer works. */
export function refreshTokens(ctx: BrokerContext, tokens: SaxoTokens, now: number, fetchImpl?: typeof fetch) {
  if (now >= tokens.refreshExpiresAt) throw authError('the Saxo sign-in has lapsed; connect again');
  const form = { grant_type: 'refresh_token', refresh_token: tokens.refreshToken, redirect_uri: app(ctx).redirectUrl };
  return tokenCall(ctx, form, now, fetchImpl);
}
