// cTrader's OAuth 2 code flow (WIRE.md §1): the user allows access at /apps/auth (scope trading),
// the one-minute code comes back to /callback/ctrader, and /apps/token exchanges it with a GET
// whose query carries the grant and the application's id and secret:
//   → {"accessToken": "…", "tokenType": "bearer", "expiresIn": 2628000, "refreshToken": "…"}
// Access tokens live 30 days; a refresh token never expires but works once: every refresh brings
// a new one, which the server stores at once (it refreshes under the connector's lock). Nothing
// here renews on its own, since a rotated token it did not hand back would be lost.
import type { AuthorizationRequest, BrokerContext } from '../../core/broker.ts';
import { BrokerError, isBrokerError } from '../../core/errors.ts';
import { requestTokens } from '../../core/oauth-tokens.ts';
import { CTRADER_TITLE } from './descriptor.ts';

export const ACCESS_TOKEN_LIFETIME_MS = 2_628_000_000;
/** The server refreshes a session at its refreshAt, on the first call after it: well before expiry. */
export const REFRESH_MARGIN_MS = 7 * 24 * 60 * 60_000;

export interface CtraderTokens {
  accessToken: string;
  refreshToken: string;
  accessExpiresAt: number;
}

const refused = (message: string) => new BrokerError('AuthenticationError', CTRADER_TITLE, message);

/** The operator's Open API application (CTRADER_CLIENT_ID, CTRADER_CLIENT_SECRET). */
export function appCredentials(ctx: BrokerContext): { clientId: string; clientSecret: string } {
  if (!ctx.clientId || !ctx.clientSecret)
    throw new BrokerError(
      'BrokerUnavailable',
      CTRADER_TITLE,
      'CTRADER_CLIENT_ID and CTRADER_CLIENT_SECRET are not set',
    );
  return { clientId: ctx.clientId, clientSecret: ctx.clientSecret };
}

function app(ctx: BrokerContext): { client_id: string; client_secret: string } {
  const { clientId, clientSecret } = appCredentials(ctx);
  return { client_id: clientId, client_secret: clientSecret };
}

function redirectUrl(ctx: BrokerContext): string {
  if (!ctx.redirectUrl) throw new BrokerError('BrokerUnavailable', CTRADER_TITLE, 'PUBLIC_URL is not set');
  return ctx.redirectUrl;
}

export function authorizationUrl(ctx: BrokerContext, state: string): AuthorizationRequest {
  const url = new URL(`${ctx.baseUrl}/apps/auth`);
  url.search = new URLSearchParams({
    client_id: app(ctx).client_id,
    redirect_uri: redirectUrl(ctx),
    scope: 'trading',
    state,
  }).toString();
  return { requestUrl: url.toString() };
}

async function tokens(ctx: BrokerContext, grant: Record<string, string>, now: number): Promise<CtraderTokens> {
  const answer = await requestTokens({
    brokerTitle: CTRADER_TITLE,
    ctx,
    path: '/apps/token',
    query: { ...grant, ...app(ctx) },
    defaultLifetimeMs: ACCESS_TOKEN_LIFETIME_MS,
  });
  if (!answer.refreshToken) throw refused('the token answer holds no refresh token; connect again');
  return {
    accessToken: answer.accessToken,
    refreshToken: answer.refreshToken,
    accessExpiresAt: now + answer.expiresInMs,
  };
}

export function exchangeCode(ctx: BrokerContext, code: string, now: number): Promise<CtraderTokens> {
  if (!code.trim()) return Promise.reject(refused('no authorization code; connect again'));
  return tokens(ctx, { grant_type: 'authorization_code', code, redirect_uri: redirectUrl(ctx) }, now);
}

/** New access and refresh tokens; the old ones stop working. Never retried: the refresh token works once. */
export async function refreshTokens(ctx: BrokerContext, current: CtraderTokens, now: number): Promise<CtraderTokens> {
  try {
    return await tokens(ctx, { grant_type: 'refresh_token', refresh_token: current.refreshToken }, now);
  } catch (error) {
    if (!isBrokerError(error) || error.kind !== 'AuthenticationError') throw error;
    throw refused('the refresh token was refused (each works once, and revoking access ends it); connect again');
  }
}
