// Connecting a MetaTrader account. Two ways, told apart by the login:
//   - an MT login (digits), password and server: the account is added to the site's MetaApi
//     (METATRADER_CLIENT_SECRET) under the platform the server search lists the server for;
//   - an existing MetaApi account id with the user's own MetaApi token as the password: the token
//     proves the account is theirs (another user's id answers 404), and it is kept sealed.
// Either way MetaApi must deploy the account and connect it to the broker before it can trade:
// this waits, polling with growing pauses, at most `waitMs`; past that the user is asked to
// connect again (the same credentials reach the same account: provisioning.ts).
import type { BrokerContext, BrokerSession } from '../../core/broker.ts';
import type { HttpClient } from '../../core/http.ts';
import { stringField } from '../../core/json-read.ts';
import {
  accountPath,
  fail,
  type MetaApiLink,
  type Platform,
  pause,
  provisioningClient,
  siteToken,
  tradingClient,
} from './client.ts';
import { addAccount, type Deadline, type MtCredentials, undeployAccount } from './provisioning.ts';
import type { ServerSearch } from './servers.ts';

export interface ConnectLimits {
  /** How long connecting waits for MetaApi to deploy and connect the account. */
  waitMs: number;
  /** The first pause between two looks at the account; each next one doubles, up to `maxPollMs`. */
  firstPollMs: number;
  maxPollMs: number;
}

export const CONNECT_LIMITS: ConnectLimits = { waitMs: 60_000, firstPollMs: 250, maxPollMs: 5_000 };

const METAAPI_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$|^[0-9a-f]{24,40}$/i;
const MT_LOGIN = /^\d{1,20}$/;
/** States in which MetaApi runs no terminal for the account: it has to be deployed. */
const IDLE_STATES = new Set(['CREATED', 'UNDEPLOYED', 'DEPLOY_FAILED']);

/** Polls the account until MetaApi has it deployed and connected to the broker; deploys it when idle. */
async function waitConnected(
  ctx: BrokerContext,
  http: HttpClient,
  metaApiId: string,
  deadline: Deadline,
  limits: ConnectLimits,
): Promise<Record<string, unknown>> {
  let deployed = false;
  let delay = limits.firstPollMs;
  for (;;) {
    const { body } = await http.request({ path: accountPath(metaApiId) });
    let state = stringField(body, 'state') ?? 'UNKNOWN';
    const status = stringField(body, 'connectionStatus') ?? 'DISCONNECTED';
    if (state === 'DEPLOYED' && status === 'CONNECTED') return body as Record<string, unknown>;
    if (state === 'DEPLOY_FAILED' && deployed) throw fail('BrokerUnavailable', 'MetaApi could not start the account');
    if (IDLE_STATES.has(state) && !deployed) {
      await http.request({ method: 'POST', path: `${accountPath(metaApiId)}/deploy` });
      deployed = true;
      // What the account is now, for a limit reached before the next poll (not "created").
      state = 'DEPLOYING';
    }
    if (deadline.now() + delay > deadline.at) {
      const server = stringField(body, 'server') ?? 'the broker';
      throw fail(
        'BrokerUnavailable',
        `MetaApi is still connecting the account to ${server} (${state.toLowerCase()}, ${status.toLowerCase()}); ` +
          'connect again in a minute',
      );
    }
    await pause(delay, ctx.signal);
    delay = Math.min(delay * 2, limits.maxPollMs);
  }
}

/** A JWT's expiry (ms), where the token is one and says; admin tokens carry none. */
export function tokenExpiry(token: string): number | undefined {
  const payload = token.split('.')[1];
  if (!payload) return undefined;
  try {
    const exp = (JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { exp?: unknown }).exp;
    return typeof exp === 'number' && Number.isFinite(exp) ? exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}

/** The session of a connected account, read from its terminal (demo or real, currency, login). */
async function sessionOf(
  ctx: BrokerContext,
  account: Record<string, unknown>,
  link: MetaApiLink,
  ownToken: boolean,
): Promise<BrokerSession> {
  const { body: info } = await tradingClient(ctx, link).request({
    path: `${accountPath(link.metaApiId)}/account-information`,
  });
  if ((info as { investorMode?: unknown } | undefined)?.investorMode === true) {
    // An account added for this attempt would keep running (and costing) for nothing.
    if (!ownToken) await undeployAccount(ctx, link.token, link.metaApiId).catch(() => undefined);
    throw fail('AuthenticationError', 'this is the investor (read-only) password: trading needs the master password');
  }
  const login = stringField(info, 'login') ?? link.login;
  const mode = stringField(info, 'type');
  const expiresAt = ownToken ? tokenExpiry(link.token) : undefined;
  const secrets: Record<string, string> = {
    metaApiId: link.metaApiId,
    region: link.region,
    platform: link.platform,
    login,
    server: link.server,
    ...(ownToken ? { token: link.token } : {}),
  };
  return {
    secrets,
    accounts: [
      {
        // With the server: one login number can exist at two brokers.
        id: `${login}@${link.server}`,
        name: `${stringField(account, 'platform')?.toUpperCase() ?? link.platform.toUpperCase()} ${login}`,
        dataTitle: login,
        dataType: 'margin',
        dataCurrency: stringField(info, 'currency') ?? stringField(account, 'baseCurrency') ?? 'USD',
        demo: mode ? mode !== 'ACCOUNT_TRADE_MODE_REAL' : /demo|trial/i.test(link.server),
      },
    ],
    branch: link.server,
    ...(expiresAt !== undefined ? { expiresAt } : {}),
  };
}

function linkFrom(account: Record<string, unknown>, fallback: { server: string; login: string }, token: string) {
  const platform = stringField(account, 'platform');
  return {
    metaApiId: stringField(account, '_id') ?? stringField(account, 'id') ?? '',
    region: stringField(account, 'region') ?? 'new-york',
    platform: (platform === 'mt4' ? 'mt4' : 'mt5') as Platform,
    login: stringField(account, 'login') ?? fallback.login,
    server: stringField(account, 'server') ?? fallback.server,
    token,
  };
}

export async function connectAccount(
  ctx: BrokerContext,
  input: Record<string, string>,
  servers: ServerSearch,
  limits: ConnectLimits,
): Promise<BrokerSession> {
  const credentials: MtCredentials = {
    login: input.login?.trim() ?? '',
    password: input.password ?? '',
    server: input.server?.trim() ?? '',
  };
  if (!credentials.login || !credentials.password || !credentials.server)
    throw fail('AuthenticationError', 'login, password and server are required');
  const now = ctx.now ?? Date.now;
  const deadline: Deadline = { at: now() + limits.waitMs, now };

  if (METAAPI_ID.test(credentials.login)) {
    // An account the user added at MetaApi: their token, their account.
    const token = credentials.password;
    const http = provisioningClient(ctx, token);
    const found = await http.request({ path: accountPath(credentials.login), accept: [404] });
    if (found.status === 404)
      throw fail('AuthenticationError', `no MetaApi account ${credentials.login} for this token`);
    const server = stringField(found.body, 'server') ?? '';
    if (server.toLowerCase() !== credentials.server.toLowerCase())
      throw fail(
        'InvalidOrder',
        `MetaApi account ${credentials.login} is on server ${server}, not ${credentials.server}`,
      );
    const account = await waitConnected(ctx, http, credentials.login, deadline, limits);
    return sessionOf(ctx, account, linkFrom(account, credentials, token), true);
  }

  if (!MT_LOGIN.test(credentials.login))
    throw fail('AuthenticationError', 'the login is your MetaTrader account number, or a MetaApi account id');
  const token = siteToken(ctx);
  const http = provisioningClient(ctx, token);
  const listed = await servers.platformsOf(ctx, token, credentials.server);
  const platforms: Platform[] = listed.length ? listed : ['mt5', 'mt4'];
  const { metaApiId } = await addAccount(ctx, http, token, credentials, platforms, deadline);
  const account = await waitConnected(ctx, http, metaApiId, deadline, limits);
  return sessionOf(ctx, account, linkFrom(account, credentials, token), false);
}
