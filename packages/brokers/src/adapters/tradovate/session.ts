// A Tradovate connection as stored (secrets sealed by the server) and the client of one of its
// accounts. Secrets hold the credentials (a renewal that comes too late signs in again), the
// token, the environment it was issued on and, per account, its accountSpec and environment:
//   {"username","password","cid","secret","deviceId","accessToken","tokenExpiresAt","authEnv",
//    "accounts": "[{\"id\":\"987654\",\"spec\":\"DEMO123456\",\"env\":\"demo\"}]"}
import type { BrokerAccount, BrokerContext, BrokerSecrets, BrokerSession } from '../../core/broker.ts';
import { type BrokerEnvironments, type EnvironmentKind, environmentBaseUrl } from '../../core/environments.ts';
import { accountNotInConnection, BrokerError } from '../../core/errors.ts';
import { asRecord, listOf, stringField } from '../../core/json-read.ts';
import { sendingWithStoredToken } from '../../core/oauth-tokens.ts';
import { type TradovateAnswer, type TradovateRequest, tradovateCall } from './api.ts';
import { RENEW_MARGIN_MS, readCredentials, type TradovateCredentials, type TradovateToken } from './auth.ts';
import { TRADOVATE_ENVIRONMENTS, TRADOVATE_TITLE } from './descriptor.ts';

export interface AccountRef {
  id: string;
  /** Tradovate's accountSpec: the account's name, sent with every order. */
  spec: string;
  env: EnvironmentKind;
}

export interface TradovateState {
  credentials: TradovateCredentials;
  accessToken: string;
  tokenExpiresAt: number;
  authEnv: EnvironmentKind;
  accounts: AccountRef[];
}

const reconnect = (what: string) => new BrokerError('AuthenticationError', TRADOVATE_TITLE, `${what}; reconnect`);
const isEnv = (value: unknown): value is EnvironmentKind => value === 'live' || value === 'demo';

export const baseUrlOf = (
  ctx: BrokerContext,
  env: EnvironmentKind,
  environments: BrokerEnvironments = TRADOVATE_ENVIRONMENTS,
) => environmentBaseUrl(ctx, environments, env);

export function secretsOf(state: TradovateState): BrokerSecrets {
  const { username, password, cid, secret, deviceId } = state.credentials;
  return {
    username,
    password,
    cid: String(cid),
    secret,
    deviceId,
    accessToken: state.accessToken,
    tokenExpiresAt: String(state.tokenExpiresAt),
    authEnv: state.authEnv,
    accounts: JSON.stringify(state.accounts),
  };
}

export function stateOf(session: BrokerSession): TradovateState {
  const { secrets } = session;
  if (!secrets.accessToken) throw reconnect('not signed in');
  const authEnv = isEnv(secrets.authEnv) ? secrets.authEnv : 'live';
  let accounts: AccountRef[] = [];
  try {
    accounts = listOf(JSON.parse(secrets.accounts ?? '[]')).flatMap((item) => {
      const id = stringField(item, 'id');
      const spec = stringField(item, 'spec');
      return id && spec && isEnv(item.env) ? [{ id, spec, env: item.env }] : [];
    });
  } catch {
    throw reconnect('the stored accounts cannot be read');
  }
  return {
    credentials: readCredentials(secrets),
    accessToken: secrets.accessToken,
    tokenExpiresAt: Number(secrets.tokenExpiresAt ?? 0),
    authEnv,
    accounts,
  };
}

export function sessionOf(state: TradovateState, accounts: BrokerAccount[], token: TradovateToken): BrokerSession {
  return {
    secrets: secretsOf({ ...state, accessToken: token.accessToken, tokenExpiresAt: token.expiresAt }),
    accounts,
    refreshAt: token.expiresAt - RENEW_MARGIN_MS,
    ...(token.passwordExpiresAt !== undefined ? { expiresAt: token.passwordExpiresAt } : {}),
  };
}

/** The calls of one account: on its environment, with the session's token. */
export interface AccountClient {
  account: AccountRef;
  /** The origin the account is served on (caches are kept per origin). */
  origin: string;
  /** Tradovate's numeric account id. */
  accountId: number;
  call(request: TradovateRequest): Promise<TradovateAnswer>;
}

export function accountClient(
  ctx: BrokerContext,
  session: BrokerSession,
  accountId: string,
  environments: BrokerEnvironments = TRADOVATE_ENVIRONMENTS,
): AccountClient {
  const state = stateOf(session);
  const account = state.accounts.find((item) => item.id === accountId);
  if (!account || !session.accounts.some((item) => item.id === accountId))
    throw accountNotInConnection(TRADOVATE_TITLE, accountId);
  const baseUrl = baseUrlOf(ctx, account.env, environments);
  return {
    account,
    origin: baseUrl,
    accountId: Number(account.id),
    // A token replaced by a renewal elsewhere (another instance) is refused with 401 before
    // Tradovate reads the request (WIRE.md §8): sent once more with the stored one.
    call: sendingWithStoredToken(
      ctx,
      session,
      (stored) => stored.secrets.accessToken,
      (used, request: TradovateRequest) => tradovateCall(ctx, baseUrl, stateOf(used).accessToken, request),
    ),
  };
}

/** GET /account/list → the active accounts of one environment. */
export async function listAccounts(
  ctx: BrokerContext,
  env: EnvironmentKind,
  accessToken: string,
  environments: BrokerEnvironments,
): Promise<Array<{ ref: AccountRef; account: BrokerAccount }>> {
  const { body } = await tradovateCall(ctx, baseUrlOf(ctx, env, environments), accessToken, { path: '/account/list' });
  const demo = env === 'demo';
  return listOf(body).flatMap((item) => {
    const id = stringField(item, 'id');
    const spec = stringField(item, 'name');
    if (!id || !spec || item.active === false) return [];
    const type = stringField(asRecord(item), 'marginAccountType');
    const account: BrokerAccount = {
      id,
      name: `Tradovate ${demo ? 'demo' : 'live'} ${spec}`,
      dataTitle: spec,
      ...(type ? { dataType: type.toLowerCase() } : {}),
      dataCurrency: 'USD',
      demo,
    };
    return [{ ref: { id, spec, env }, account }];
  });
}
