// tastytrade's OAuth 2 authorization code flow. The user approves on tastytrade's consent page
// (my.tastytrade.com/auth.html; the sandbox's on cert-my.staging-tasty.works), which redirects to
// /callback/tastytrade with a code. The token endpoint takes JSON, no Authorization header, and
// like every call a `User-Agent: product/version` (without one tastytrade answers 401):
//   POST /oauth/token {"grant_type":"authorization_code","code","redirect_uri","client_id","client_secret"}
//   POST /oauth/token {"grant_type":"refresh_token","refresh_token","client_secret"}
//   → {"access_token":"…","token_type":"Bearer","expires_in":900[,"refresh_token":"…"]}
// Access tokens live 15 minutes; the refresh token does not expire (until the grant is revoked).
import type { AuthorizationRequest, BrokerContext, BrokerSecrets } from '../../core/broker.ts';
import { BrokerError } from '../../core/errors.ts';
import { requestTokens } from '../../core/oauth-tokens.ts';
import { TASTYTRADE_BASE_URL, TASTYTRADE_SANDBOX_URL, TASTYTRADE_TITLE } from './descriptor.ts';

/** Every request names its product and version (WIRE.md §1). */
export const TASTYTRADE_USER_AGENT = 'signal-router/1.0';
export const ACCESS_TOKEN_LIFETIME_MS = 15 * 60_000;
/** Renew this long before the access token runs out (tastyware renews 60 s early). */
export const REFRESH_MARGIN_MS = 60_000;
export const SCOPES = 'read trade';

const CONSENT_PAGES: Record<string, string> = {
  [TASTYTRADE_BASE_URL]: 'https://my.tastytrade.com/auth.html',
  [TASTYTRADE_SANDBOX_URL]: 'https://cert-my.staging-tasty.works/auth.html',
};

export interface TastyTokens {
  accessToken: string;
  refreshToken: string;
  accessExpiresAt: number;
}

const authError = (message: string, cause?: unknown) =>
  new BrokerError('AuthenticationError', TASTYTRADE_TITLE, message, cause ? { cause } : undefined);
/**
 * This server's own setup missing (the app's id and secret, PUBLIC_URL): no refusal of the user's
 * grant, so a refresh meeting it does not deactivate the connection; the operator fixes it.
 */
const notConfigured = (message: string) => new BrokerError('BrokerUnavailable', TASTYTRADE_TITLE, message);

export function tokensOf(secrets: BrokerSecrets): TastyTokens {
  const { accessToken, refreshToken } = secrets;
  if (!accessToken || !refreshToken) throw authError('not signed in; connect again');
  return { accessToken, refreshToken, accessExpiresAt: Number(secrets.accessExpiresAt ?? 0) };
}

export function secretsOf(tokens: TastyTokens): BrokerSecrets {
  return {
    accessToken: tokens.accessToken,
    refreshToken: tokens.refreshToken,
    accessExpiresAt: String(tokens.accessExpiresAt),
  };
}

function appCredentials(ctx: BrokerContext): { clientId: string; clientSecret: string } {
  const { clientId, clientSecret } = ctx;
  if (!clientId || !clientSecret) throw notConfigured('TASTYTRADE_CLIENT_ID and TASTYTRADE_CLIENT_SECRET are not set');
  return { clientId, clientSecret };
}

/** The consent page of the API's environment; a fake or gateway serves its own at /auth.html. */
export function consentPage(baseUrl: string): string {
  return CONSENT_PAGES[baseUrl] ?? `${baseUrl}/auth.html`;
}

export function authorizationUrl(ctx: BrokerContext, state: string): AuthorizationRequest {
  const { clientId } = appCredentials(ctx);
  if (!ctx.redirectUrl) throw notConfigured('PUBLIC_URL is not set');
  const url = new URL(consentPage(ctx.baseUrl));
  url.search = new URLSearchParams({
    client_id: clientId,
    redirect_uri: ctx.redirectUrl,
    response_type: 'code',
    scope: SCOPES,
    state,
  }).toString();
  return { requestUrl: url.toString() };
}

const tokenRequest = (ctx: BrokerContext, json: Record<string, string>, fetchImpl: typeof fetch | undefined) =>
  requestTokens({
    brokerTitle: TASTYTRADE_TITLE,
    ctx,
    path: '/oauth/token',
    json,
    headers: { 'user-agent': TASTYTRADE_USER_AGENT },
    defaultLifetimeMs: ACCESS_TOKEN_LIFETIME_MS,
    ...(fetchImpl ? { fetch: fetchImpl } : {}),
  });

export async function exchangeCode(
  ctx: BrokerContext,
  code: string,
  now: number,
  fetchImpl?: typeof fetch,
): Promise<TastyTokens> {
  const { clientId, clientSecret } = appCredentials(ctx);
  if (!ctx.redirectUrl) throw notConfigured('PUBLIC_URL is not set');
  const answer = await tokenRequest(
    ctx,
    {
      grant_type: 'authorization_code',
      code,
      redirect_uri: ctx.redirectUrl,
      client_id: clientId,
      client_secret: clientSecret,
    },
    fetchImpl,
  );
  if (!answer.refreshToken)
    throw new BrokerError('BrokerUnavailable', TASTYTRADE_TITLE, 'no refresh token in the answer');
  return {
    accessToken: answer.accessToken,
    refreshToken: answer.refreshToken,
    accessExpiresAt: now + answer.expiresInMs,
  };
}

/** A new access token; a rotated refresh token replaces the old one. */
export async function refreshTokens(
  ctx: BrokerContext,
  tokens: TastyTokens,
  now: number,
  fetchImpl?: typeof fetch,
): Promise<TastyTokens> {
  const { clientSecret } = appCredentials(ctx);
  const answer = await tokenRequest(
    ctx,
    { grant_type: 'refresh_token', refresh_token: tokens.refreshToken, client_secret: clientSecret },
    fetchImpl,
  );
  return {
    accessToken: answer.accessToken,
    refreshToken: answer.refreshToken ?? tokens.refreshToken,
    accessExpiresAt: now + answer.expiresInMs,
  };
}
