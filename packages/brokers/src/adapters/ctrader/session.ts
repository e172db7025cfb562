// A cTrader connection as stored (secrets sealed by the server): the OAuth tokens and, per
// account, whether it lives on the live or the demo endpoint.
//   {"accessToken","refreshToken","accessExpiresAt","accounts":"[{\"id\":\"44533070\",\"live\":false}]"}
// The refresh token does not expire, but the access token does (30 days) and the session stops
// working then unless it was refreshed: that is its expiresAt. refreshAt comes a week before.
import type { BrokerAccount, BrokerContext, BrokerSecrets, BrokerSession } from '../../core/broker.ts';
import { accountNotInConnection, BrokerError } from '../../core/errors.ts';
import { listOf, stringField } from '../../core/json-read.ts';
import { CTRADER_ENDPOINTS, CTRADER_OAUTH_ORIGIN, CTRADER_TITLE } from './descriptor.ts';
import { type CtraderTokens, REFRESH_MARGIN_MS } from './oauth.ts';

export type Endpoints = { live: string; demo: string };

export interface AccountRef {
  id: string;
  live: boolean;
}

export interface CtraderState extends CtraderTokens {
  accounts: AccountRef[];
}

const reconnect = (what: string) => new BrokerError('AuthenticationError', CTRADER_TITLE, `${what}; connect again`);

export function sessionOf(state: CtraderState, accounts: BrokerAccount[]): BrokerSession {
  return {
    secrets: {
      accessToken: state.accessToken,
      refreshToken: state.refreshToken,
      accessExpiresAt: String(state.accessExpiresAt),
      accounts: JSON.stringify(state.accounts),
    },
    accounts,
    expiresAt: state.accessExpiresAt,
    refreshAt: state.accessExpiresAt - REFRESH_MARGIN_MS,
  };
}

export function stateOf(secrets: BrokerSecrets): CtraderState {
  const { accessToken, refreshToken } = secrets;
  if (!accessToken || !refreshToken) throw reconnect('not signed in');
  let accounts: AccountRef[];
  try {
    accounts = listOf(JSON.parse(secrets.accounts ?? '[]')).flatMap((item) => {
      const id = stringField(item, 'id');
      return id && typeof item.live === 'boolean' ? [{ id, live: item.live }] : [];
    });
  } catch {
    throw reconnect('the stored accounts cannot be read');
  }
  return { accessToken, refreshToken, accessExpiresAt: Number(secrets.accessExpiresAt ?? 0), accounts };
}

/** The account of this connection; any other is refused before anything is sent. */
export function accountOf(session: BrokerSession, accountId: string): { state: CtraderState; account: AccountRef } {
  const state = stateOf(session.secrets);
  const account = state.accounts.find((item) => item.id === accountId);
  if (!account || !session.accounts.some((item) => item.id === accountId))
    throw accountNotInConnection(CTRADER_TITLE, accountId);
  return { state, account };
}

/**
 * The socket URL of an environment: the adapter's own endpoints when given (tests: two of a
 * fake's), else cTrader's. `CTRADER_BASE_URL` (a fake, a gateway) replaces the OAuth origin and
 * both endpoints: sockets then go to its host and port (ws for http, wss for https).
 */
export function endpointOf(ctx: BrokerContext, live: boolean, endpoints?: Endpoints): string {
  const chosen = endpoints ?? CTRADER_ENDPOINTS;
  if (!endpoints && ctx.baseUrl && ctx.baseUrl !== CTRADER_OAUTH_ORIGIN) return ctx.baseUrl.replace(/^http/, 'ws');
  return live ? chosen.live : chosen.demo;
}
