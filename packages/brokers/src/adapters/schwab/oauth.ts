// Schwab's OAuth 2 authorization code flow. The token endpoint takes the app's key and secret
// as HTTP Basic and a form body, and answers:
//   {"expires_in":1800,"token_type":"Bearer","scope":"api","refresh_token":"...","access_token":"...","id_token":"..."}
// Access tokens live 30 minutes; the refresh token 7 days from the sign-in, and refreshing does
// not extend it, so the user signs in again weekly (the connector warns 3 days ahead).
import type { AuthorizationRequest, BrokerContext, BrokerSecrets } from '../../core/broker.ts';
import { BrokerError } from '../../core/errors.ts';
import { requestTokens } from '../../core/oauth-tokens.ts';
import { SCHWAB_TITLE } from './descriptor.ts';

export const ACCESS_TOKEN_LIFETIME_MS = 30 * 60_000;
export const REFRESH_TOKEN_LIFETIME_MS = 7 * 24 * 60 * 60_000;
/** Refresh this long before the access token runs out, so no call meets an expired one. */
export const REFRESH_MARGIN_MS = 5 * 60_000;

export interface SchwabTokens {
  accessToken: string;
  refreshToken: string;
  accessExpiresAt: number;
  refreshExpiresAt: number;
}

export function tokensOf(secrets: BrokerSecrets, expiresAt?: number): SchwabTokens {
  const { accessToken, refreshToken } = secrets;
  if (!accessToken || !refreshToken) {
    throw new BrokerError('AuthenticationError', SCHWAB_TITLE, 'not signed in; connect again');
  }
  return {
    accessToken,
    refreshToken,
    accessExpiresAt: Number(secrets.accessExpiresAt ?? 0),
    refreshExpiresAt: expiresAt ?? Number(secrets.refreshExpiresAt ?? 0),
  };
}

export function secretsOf(tokens: SchwabTokens): BrokerSecrets {
  return {
    accessToken: tokens.accessToken,
    refreshToken: tokens.refreshToken,
    accessExpiresAt: String(tokens.accessExpiresAt),
    refreshExpiresAt: String(tokens.refreshExpiresAt),
  };
}

function appCredentials(ctx: BrokerContext): { clientId: string; clientSecret: string } {
  const { clientId, clientSecret } = ctx;
  if (!clientId || !clientSecret) {
    // This server's setup, not the user's grant: a refresh meeting it deactivates nothing.
    throw new BrokerError(
      'BrokerUnavailable',
      SCHWAB_TITLE,
      'this server is not set up for Schwab yet (no app credentials)',
    );
  }
  return { clientId, clientSecret };
}

export function authorizationUrl(ctx: BrokerContext, state: string): AuthorizationRequest {
  const { clientId } = appCredentials(ctx);
  if (!ctx.redirectUrl)
    throw new BrokerError(
      'AuthenticationError',
      SCHWAB_TITLE,
      'this server has no public address for Schwab to return to',
    );
  const url = new URL(`${ctx.baseUrl}/v1/oauth/authorize`);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: ctx.redirectUrl,
    state,
  }).toString();
  return { requestUrl: url.toString() };
}

/** One call to the token endpoint: the app's key and secret as HTTP Basic, a form body. */
function tokenRequest(ctx: BrokerContext, form: Record<string, string>, fetchImpl: typeof fetch | undefined) {
  const { clientId, clientSecret } = appCredentials(ctx);
  return requestTokens({
    brokerTitle: SCHWAB_TITLE,
    ctx,
    path: '/v1/oauth/token',
    form,
    headers: { authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}` },
    defaultLifetimeMs: ACCESS_TOKEN_LIFETIME_MS,
    ...(fetchImpl ? { fetch: fetchImpl } : {}),
  });
}

export async function exchangeCode(
  ctx: BrokerContext,
  code: string,
  now: number,
  fetchImpl?: typeof fetch,
): Promise<SchwabTokens> {
  if (!ctx.redirectUrl)
    throw new BrokerError(
      'AuthenticationError',
      SCHWAB_TITLE,
      'this server has no public address for Schwab to return to',
    );
  const answer = await tokenRequest(
    ctx,
    { grant_type: 'authorization_code', code, redirect_uri: ctx.redirectUrl },
    fetchImpl,
  );
  if (!answer.refreshToken) throw new BrokerError('BrokerUnavailable', SCHWAB_TITLE, 'no refresh token in the answer');
  return {
    accessToken: answer.accessToken,
    refreshToken: answer.refreshToken,
    accessExpiresAt: now + answer.expiresInMs,
    refreshExpiresAt: now + REFRESH_TOKEN_LIFETIME_MS,
  };
}

/** New access token; the refresh token's expiry stays that of the sign-in. */
export async function refreshTokens(
  ctx: BrokerContext,
  tokens: SchwabTokens,
  now: number,
  fetchImpl?: typeof fetch,
): Promise<SchwabTokens> {
  const answer = await tokenRequest(
    ctx,
    { grant_type: 'refresh_token', refresh_token: tokens.refreshToken },
    fetchImpl,
  );
  return {
    accessToken: answer.accessToken,
    refreshToken: answer.refreshToken ?? tokens.refreshToken,
    accessExpiresAt: now + answer.expiresInMs,
    refreshExpiresAt: tokens.refreshExpiresAt,
  };
}
