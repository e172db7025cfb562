// Logging in to a Rithmic plant (WIRE.md §1-2), the ORDER_PLANT unless the front month of a
// continuous symbol is asked of the TICKER_PLANT: optional system info (16) to check the system
// name, login (10) with the plant's infra_type, heartbeats at the interval the login answer gives,
// login info (300: fcm, ib, user type), then what the call needs: the accounts (302), the trade
// routes (310) and the order updates of one account (308). Connecting and the ticker plant open
// a session for the call and log out at its end; the order plant's sessions are kept (pool.ts).
// The server keeps only the credentials, sealed.
import type { BrokerAccount, BrokerContext, BrokerSession } from '../../core/broker.ts';
import { BrokerError, checkAccountInConnection } from '../../core/errors.ts';
import { type Connection, openConnection } from './connection.ts';
import { RITHMIC_TITLE } from './descriptor.ts';
import { ORDER_PLANT } from './protocol.ts';

/** What RequestLogin carries besides the credentials (broker-specs/rithmic/fixtures/login.request.json). */
export const LOGIN_APP = { template_version: '3.9', app_name: 'signal-router', app_version: '1.0.0' } as const;

export interface Credentials {
  user: string;
  password: string;
  systemName: string;
}

export interface Plant {
  connection: Connection;
  fcmId: string;
  ibId: string;
  userType: number;
  /** What this session asked already (or is asking): order updates per account (308), trade routes (310). */
  known: { subscribed: Map<string, Promise<void>>; routes: Map<'routes', Promise<Map<string, string>>> };
}

export interface RithmicAccount {
  accountId: string;
  name: string;
  currency?: string;
}

const text = (value: unknown) => (typeof value === 'string' ? value : '');

export function readCredentials(values: Record<string, string | undefined>): Credentials {
  const user = values.user?.trim() ?? '';
  const password = values.password ?? '';
  const systemName = values.systemName?.trim() ?? '';
  if (!user || !password || !systemName)
    throw new BrokerError('AuthenticationError', RITHMIC_TITLE, 'user, password and system name are required');
  return { user, password, systemName };
}

/** Refuses a system name the gateway does not offer, naming the ones it does. */
async function checkSystem(connection: Connection, systemName: string): Promise<void> {
  const { last } = await connection.request({ template_id: 16 }, { refusal: 'BrokerUnavailable' });
  const systems = Array.isArray(last.system_name) ? last.system_name.map(String) : [];
  if (systems.length > 0 && !systems.includes(systemName))
    throw new BrokerError(
      'AuthenticationError',
      RITHMIC_TITLE,
      `system "${systemName}" is not offered by this gateway (it offers ${systems.join(', ')})`,
    );
}

/**
 * A logged-in plant: the order plant (with its login info), or the ticker plant for reference
 * data; `checkSystemName` asks the gateway's systems first (connecting).
 */
export async function openPlant(
  ctx: BrokerContext,
  credentials: Credentials,
  options: { checkSystemName?: boolean; infraType?: number } = {},
): Promise<Plant> {
  const infraType = options.infraType ?? ORDER_PLANT;
  const connection = await openConnection(ctx.baseUrl, ctx.signal);
  const calls = withSignal(connection, ctx.signal);
  try {
    if (options.checkSystemName) await checkSystem(calls, credentials.systemName);
    const { last: login } = await calls.request(
      {
        template_id: 10,
        ...LOGIN_APP,
        user: credentials.user,
        password: credentials.password,
        system_name: credentials.systemName,
        infra_type: infraType,
      },
      { refusal: 'AuthenticationError' },
    );
    const interval = typeof login.heartbeat_interval === 'number' ? login.heartbeat_interval : 0;
    connection.startHeartbeats(interval);
    const known = { subscribed: new Map(), routes: new Map() };
    const plant = { connection, fcmId: text(login.fcm_id), ibId: text(login.ib_id), userType: 3, known };
    if (infraType !== ORDER_PLANT) return plant;
    const { last: info } = await calls.request({ template_id: 300 });
    return {
      ...plant,
      fcmId: text(info.fcm_id) || plant.fcmId,
      ibId: text(info.ib_id) || plant.ibId,
      userType: typeof info.user_type === 'number' ? info.user_type : 3,
    };
  } catch (error) {
    await connection.close();
    throw error;
  }
}

/** The plant as one call uses it: every request bounded by the caller's deadline. */
export const plantFor = (plant: Plant, signal: AbortSignal | undefined): Plant => ({
  ...plant,
  connection: withSignal(plant.connection, signal),
});

function withSignal(connection: Connection, signal: AbortSignal | undefined): Connection {
  if (!signal) return connection;
  return {
    request: (fields, options) => connection.request(fields, { signal, ...options }),
    onNotification: (listener) => connection.onNotification(listener),
    startHeartbeats: (seconds) => connection.startHeartbeats(seconds),
    get usable() {
      return connection.usable;
    },
    close: () => connection.close(),
  };
}

/** Runs `work` on a logged-in plant (the order plant unless told), then logs out whatever happened. */
export async function withPlant<T>(
  ctx: BrokerContext,
  credentials: Credentials,
  work: (plant: Plant) => Promise<T>,
  options: { checkSystemName?: boolean; infraType?: number } = {},
): Promise<T> {
  const plant = await openPlant(ctx, credentials, options);
  try {
    return await work(plantFor(plant, ctx.signal));
  } finally {
    await plant.connection.close();
  }
}

/** The user's accounts: one 303 per account, then the closing 303. */
export async function listAccounts(plant: Plant): Promise<RithmicAccount[]> {
  const { parts } = await plant.connection.request({
    template_id: 302,
    fcm_id: plant.fcmId,
    ib_id: plant.ibId,
    user_type: plant.userType,
  });
  return parts
    .filter((part) => text(part.account_id))
    .map((part) => ({
      accountId: text(part.account_id),
      name: text(part.account_name) || text(part.account_id),
      ...(text(part.account_currency) ? { currency: text(part.account_currency) } : {}),
    }));
}

/**
 * Exchange → trade route: the default route of each exchange, else its first. Asked once per
 * session, and again when an exchange is missing (`fresh`).
 */
export const tradeRoutes = (plant: Plant, fresh = false): Promise<Map<string, string>> =>
  once(plant.known.routes, 'routes', () => askRoutes(plant), fresh);

/** What `ask` answers, asked once per session; a failed ask is forgotten, so the next call asks again. */
function once<K, T>(memo: Map<K, Promise<T>>, key: K, ask: () => Promise<T>, fresh = false): Promise<T> {
  const known = fresh ? undefined : memo.get(key);
  if (known) return known;
  const asked = ask();
  memo.set(key, asked);
  asked.catch(() => {
    if (memo.get(key) === asked) memo.delete(key);
  });
  return asked;
}

async function askRoutes(plant: Plant): Promise<Map<string, string>> {
  const { parts } = await plant.connection.request({ template_id: 310, subscribe_for_updates: false });
  const routes = new Map<string, string>();
  const sorted = [...parts].sort((a, b) => Number(b.is_default === true) - Number(a.is_default === true));
  for (const part of sorted) {
    const exchange = text(part.exchange);
    if (exchange && text(part.trade_route) && !routes.has(exchange)) routes.set(exchange, text(part.trade_route));
  }
  return routes;
}

/** Live notifications for the account's orders from here on (308), once per session. */
export const subscribeToOrders = (plant: Plant, accountId: string): Promise<void> =>
  once(plant.known.subscribed, accountId, async () => {
    await plant.connection.request({ template_id: 308, fcm_id: plant.fcmId, ib_id: plant.ibId, account_id: accountId });
  });

/** The account fields every order request carries. */
export const accountFields = (plant: Plant, accountId: string) => ({
  fcm_id: plant.fcmId,
  ib_id: plant.ibId,
  account_id: accountId,
});

/** Paper and test systems hold simulated accounts. */
const DEMO_SYSTEM = /test|paper|demo|sim/i;

export function brokerAccounts(accounts: RithmicAccount[], systemName: string): BrokerAccount[] {
  return accounts.map((account) => ({
    id: account.accountId,
    name: account.name,
    ...(account.currency ? { dataCurrency: account.currency } : {}),
    demo: DEMO_SYSTEM.test(systemName),
  }));
}

export const secretsOf = (credentials: Credentials): BrokerSession['secrets'] => ({ ...credentials });

export function checkAccount(session: BrokerSession, accountId: string): void {
  checkAccountInConnection(RITHMIC_TITLE, session, accountId);
}
