// Questrade's OAuth 2 (WIRE.md §1): the authorization code at /oauth2/authorize, then
//   POST /oauth2/token  grant_type=authorization_code&code=…&client_id=…&redirect_uri=…
//   POST /oauth2/token  grant_type=refresh_token&refresh_token=…
//   → {"access_token","token_type":"Bearer","expires_in":1800,"refresh_token","api_server":"https://api01.iq.questrade.com/"}
// Refresh tokens are single-use: every answer brings a new one and a new API host, and the
// server stores both at once (it calls refresh under the connector's lock and saves what it
// returns). Nothing here renews tokens on its own, since a rotated token it did not hand back
// would be lost. A refresh whose answer is lost has spent the token: the user connects again.
import type { AuthorizationRequest, BrokerContext, BrokerSecrets } from '../../core/broker.ts';
import { BrokerError, isBrokerError } from '../../core/errors.ts';
import { stringField } from '../../core/json-read.ts';
import { requestTokens, type TokenAnswer } from '../../core/oauth-tokens.ts';
import { QUESTRADE_TITLE } from './descriptor.ts';

/** Access tokens are refreshed this long before they run out. */
export const REFRESH_MARGIN_MS = 5 * 60_000;
/** An unused refresh token lapses after about 7 days (WIRE.md §1). */
export const REFRESH_TOKEN_LIFETIME_MS = 7 * 24 * 60 * 60_000;
const ACCESS_LIFETIME_MS = 30 * 60_000;

export interface QuestradeTokens {
  accessToken: string;
  refreshToken: string;
  /** Where the API is served for this token, with a trailing slash. */
  apiServer: string;
  accessExpiresAt: number;
  refreshExpiresAt: number;
}

const refused = (message: string) => new BrokerError('AuthenticationError', QUESTRADE_TITLE, message);

export function tokensOf(secrets: BrokerSecrets): QuestradeTokens {
  const { accessToken, refreshToken, apiServer } = secrets;
  if (!accessToken || !refreshToken || !apiServer) throw refused('not signed in; connect again');
  return {
    accessToken,
    refreshToken,
    apiServer,
    accessExpiresAt: Number(secrets.accessExpiresAt ?? 0),
    refreshExpiresAt: Number(secrets.refreshExpiresAt ?? 0),
  };
}

export function secretsOf(tokens: QuestradeTokens): BrokerSecrets {
  return {
    accessToken: tokens.accessToken,
    refreshToken: tokens.refreshToken,
    apiServer: tokens.apiServer,
    accessExpiresAt: String(tokens.accessExpiresAt),
    refreshExpiresAt: String(tokens.refreshExpiresAt),
  };
}

function clientIdOf(ctx: BrokerContext): string {
  if (!ctx.clientId) throw refused('QUESTRADE_CLIENT_ID is not set');
  return ctx.clientId;
}

export function authorizationUrl(ctx: BrokerContext, state: string): AuthorizationRequest {
  if (!ctx.redirectUrl) throw refused('PUBLIC_URL is not set');
  const url = new URL(`${ctx.baseUrl}/oauth2/authorize`);
  url.search = new URLSearchParams({
    client_id: clientIdOf(ctx),
    response_type: 'code',
    redirect_uri: ctx.redirectUrl,
    state,
  }).toString();
  return { requestUrl: url.toString() };
}

/**
 * The API host of a token answer: https, or on the sign-in origin when that is not https (a
 * fake or a gateway on this machine). The access token is sent there, so nothing else passes.
 */
export function apiServerOf(ctx: BrokerContext, value: string | undefined): string {
  let url: URL | undefined;
  try {
    url = value ? new URL(value) : undefined;
  } catch {
    url = undefined;
  }
  const local = new URL(ctx.baseUrl);
  const trusted = url?.protocol === 'https:' || (local.protocol !== 'https:' && url?.origin === local.origin);
  if (!url || !trusted || url.username || url.password)
    throw new BrokerError('BrokerUnavailable', QUESTRADE_TITLE, 'the token answer names no usable API server');
  return url.href.endsWith('/') ? url.href : `${url.href}/`;
}

async function tokensFrom(
  ctx: BrokerContext,
  form: Record<string, string>,
  now: number,
  refreshExpiresAt: number,
): Promise<QuestradeTokens> {
  let answer: TokenAnswer;
  try {
    // Never retried: the refresh token it carries works once.
    answer = await requestTokens({
      brokerTitle: QUESTRADE_TITLE,
      ctx,
      path: '/oauth2/token',
      form,
      defaultLifetimeMs: ACCESS_LIFETIME_MS,
    });
  } catch (error) {
    if (form.grant_type !== 'refresh_token' || !isBrokerError(error) || error.kind !== 'AuthenticationError')
      throw error;
    throw refused(`the refresh token was refused (each works once; it may have been used already); connect again`);
  }
  if (!answer.refreshToken) throw refused('the token answer holds no new refresh token; connect again');
  return {
    accessToken: answer.accessToken,
    refreshToken: answer.refreshToken,
    apiServer: apiServerOf(ctx, stringField(answer.body, 'api_server')),
    accessExpiresAt: now + answer.expiresInMs,
    refreshExpiresAt,
  };
}

export function exchangeCode(ctx: BrokerContext, code: string, now: number): Promise<QuestradeTokens> {
  if (!ctx.redirectUrl) throw refused('PUBLIC_URL is not set');
  const form = { grant_type: 'authorization_code', code, client_id: clientIdOf(ctx), redirect_uri: ctx.redirectUrl };
  return tokensFrom(ctx, form, now, now + REFRESH_TOKEN_LIFETIME_MS);
}

/** New access and refresh tokens and API host; the new refresh token lasts 7 days from now. */
export function refreshTokens(ctx: BrokerContext, tokens: QuestradeTokens, now: number): Promise<QuestradeTokens> {
  const form = { grant_type: 'refresh_token', refresh_token: tokens.refreshToken };
  return tokensFrom(ctx, form, now, now + REFRESH_TOKEN_LIFETIME_MS);
}
