// Calls in a connection's brokerage session (brokerage.ts), one state per connection in memory:
// its credentials, the newest live session token (renewed here when the stored one ran out, as
// the server's refresh would), and the session checks. A call that meets a lost session (401,
// "no bridge") opens it again and is sent once more: IBKR processed nothing, so even an order
// cannot be doubled (and its cOID would be refused). Reads that hit the pacing limit wait as long
// as Retry-After says (a second without one), within a cap and the caller's deadline, and are
// tried once more; submissions are not. The live orders list may come back empty the first time
// it is read in a brokerage session, while IBKR's subscription warms up (WIRE.md §6): an empty
// first answer is asked again once, after the list's pacing (1 request per 5 s, §9), where orders
// are to be canceled or cut.
import type { BrokerContext, BrokerSession } from '../../core/broker.ts';
import { BrokerError } from '../../core/errors.ts';
import type { HttpRequest, HttpResponse } from '../../core/http.ts';
import { asRecord, type JsonRecord, listOf } from '../../core/json-read.ts';
import { pauseFor, readRetryWaitMs } from '../../core/read-retry.ts';
import { type Brokerage, ensureBrokerage, keepGatewayAlive, type RawSend } from './brokerage.ts';
import { credentialsOf } from './credentials.ts';
import { IBKR_TITLE } from './descriptor.ts';
import { type LiveSession, requestLiveSessionToken } from './oauth.ts';
import { errorInBody, failure, refusalOf, send, sessionLost } from './transport.ts';

/** The stored token is replaced this long before it runs out (the server refreshes an hour ahead). */
const TOKEN_MARGIN_MS = 60_000;
const MAX_CONNECTIONS = 1_000;
/** IBKR's pacing of GET /iserver/account/orders: one request per 5 s (WIRE.md §9). */
export const LIVE_ORDERS_PACING_MS = 5_000;
const LIVE_ORDERS = '/iserver/account/orders';

export interface IbkrApiOptions {
  now?: () => number;
  fetch?: typeof fetch;
  /** How often a gateway is tickled (IBKR: about every 60 s). */
  keepAliveMs?: number;
  /** The wait between two reads of the live orders list (IBKR's pacing; tests shorten it). */
  liveOrdersPacingMs?: number;
}

type Connection = Brokerage & {
  lst?: LiveSession;
  keepAlive?: NodeJS.Timeout;
  renewing?: Promise<void>;
  /** The last submission: the next one waits for its answer. */
  submitting?: Promise<unknown>;
};

export interface IbkrApi {
  /** A request in the connection's brokerage session; refusals in 200 bodies are thrown. */
  call(ctx: BrokerContext, session: BrokerSession, request: HttpRequest): Promise<HttpResponse>;
  /** GET /iserver/accounts of the session; `fresh` forgets what was known (connect). */
  accounts(ctx: BrokerContext, session: BrokerSession, fresh?: boolean): Promise<unknown>;
  /** GET /iserver/account/orders: the orders of every account of the login; `warm`: an empty first answer of the session is asked again. */
  liveOrders(ctx: BrokerContext, session: BrokerSession, warm: boolean): Promise<JsonRecord[]>;
  /** GET /portfolio/accounts, read once per session before other /portfolio calls. */
  portfolioAccounts(ctx: BrokerContext, session: BrokerSession): Promise<unknown>;
  /** Runs `work` after the connection's earlier submissions were answered (IBKR: one at a time). */
  serially<T>(ctx: BrokerContext, session: BrokerSession, work: () => Promise<T>): Promise<T>;
  /** Stops the gateway keep-alive timers (tests, shutdown). */
  close(): void;
}

export function sessionToken(session: BrokerSession): LiveSession | undefined {
  const token = session.secrets.liveSessionToken;
  const expiresAt = Number(session.secrets.liveSessionTokenExpiresAt);
  return token && Number.isFinite(expiresAt) ? { token, expiresAt } : undefined;
}

export function createIbkrApi(options: IbkrApiOptions = {}): IbkrApi {
  const now = options.now ?? Date.now;
  const connections = new Map<string, Connection>();
  const raw: RawSend = (ctx, brokerage, request) => send(ctx, brokerage, request, now(), options.fetch);

  function connectionOf(ctx: BrokerContext, session: BrokerSession, fresh = false): Connection {
    const { secrets } = session;
    const key = `${ctx.baseUrl} ${secrets.mode} ${secrets.consumerKey ?? ''} ${secrets.accessToken ?? ''}`;
    let connection = fresh ? undefined : connections.get(key);
    if (!connection) {
      const old = connections.get(key);
      if (old?.keepAlive) clearInterval(old.keepAlive);
      connection = { credentials: credentialsOf(secrets), checkedAt: 0 };
      connections.delete(key);
      if (connections.size >= MAX_CONNECTIONS) {
        const [oldestKey, oldest] = connections.entries().next().value ?? [];
        if (oldest?.keepAlive) clearInterval(oldest.keepAlive);
        if (oldestKey !== undefined) connections.delete(oldestKey);
      }
      connections.set(key, connection);
    }
    // A token refreshed by the server (or another instance) replaces ours; its session is checked anew.
    const stored = sessionToken(session);
    if (stored && stored.expiresAt > (connection.lst?.expiresAt ?? 0)) {
      connection.lst = stored;
      connection.token = stored.token;
      connection.checkedAt = 0;
    }
    return connection;
  }

  async function usable(ctx: BrokerContext, connection: Connection): Promise<void> {
    const { credentials } = connection;
    if (credentials.mode === 'oauth' && (connection.lst?.expiresAt ?? 0) - now() < TOKEN_MARGIN_MS) {
      connection.renewing ??= requestLiveSessionToken(ctx, credentials, now(), options.fetch)
        .then((lst) => {
          connection.lst = lst;
          connection.token = lst.token;
          connection.checkedAt = 0;
        })
        .finally(() => {
          connection.renewing = undefined;
        });
      await connection.renewing;
    }
    await ensureBrokerage(raw, ctx, connection, now());
    if (credentials.mode === 'gateway') keepGatewayAlive(raw, ctx, connection, options.keepAliveMs ?? 60_000, now);
  }

  async function call(ctx: BrokerContext, session: BrokerSession, request: HttpRequest): Promise<HttpResponse> {
    const connection = connectionOf(ctx, session);
    const method = request.method ?? (request.json !== undefined ? 'POST' : 'GET');
    const mutating = request.mutating ?? !(method === 'GET' || method === 'HEAD');
    await usable(ctx, connection);
    let response = await raw(ctx, connection, request);
    if (sessionLost(response)) {
      await ensureBrokerage(raw, ctx, connection, now(), { reopen: true });
      response = await raw(ctx, connection, request);
    } else if (response.status === 429 && !mutating) {
      // Asked again sooner than IBKR says lengthens the penalty box (WIRE.md §8); a wait beyond
      // the cap is not waited for.
      const retryAfter = response.headers.get('retry-after')?.trim();
      const wait = readRetryWaitMs(retryAfter, now());
      if (wait === undefined) throw failure(response, mutating);
      await pauseFor(wait, ctx.signal).catch(() => {
        throw new BrokerError('RateLimited', IBKR_TITLE, 'rate limit reached before the deadline', {
          ...(retryAfter ? { retryAfter } : {}),
        });
      });
      response = await raw(ctx, connection, request);
    }
    if (response.status >= 300 && !request.accept?.includes(response.status)) throw failure(response, mutating);
    const error = response.status < 300 ? errorInBody(response.body) : undefined;
    if (error) throw refusalOf(error);
    return response;
  }

  return {
    call,
    async accounts(ctx, session, fresh = false) {
      const connection = connectionOf(ctx, session, fresh);
      await usable(ctx, connection);
      return connection.accounts;
    },
    async liveOrders(ctx, session, warm) {
      const connection = connectionOf(ctx, session);
      const read = async () => listOf(asRecord((await call(ctx, session, { path: LIVE_ORDERS })).body)?.orders);
      const orders = await read();
      // Read after the session (re)opened, in this call included: the first answer of the session.
      const first = !connection.liveOrdersRead;
      connection.liveOrdersRead = true;
      if (!warm || !first || orders.length > 0) return orders;
      await pauseFor(options.liveOrdersPacingMs ?? LIVE_ORDERS_PACING_MS, ctx.signal).catch(() => {
        throw new BrokerError(
          'BrokerUnavailable',
          IBKR_TITLE,
          'the open orders list was not ready before the deadline',
        );
      });
      return read();
    },
    async portfolioAccounts(ctx, session) {
      const connection = connectionOf(ctx, session);
      await usable(ctx, connection);
      connection.portfolioAccounts ??= (await call(ctx, session, { path: '/portfolio/accounts' })).body;
      return connection.portfolioAccounts;
    },
    serially(ctx, session, work) {
      const connection = connectionOf(ctx, session);
      const previous = connection.submitting ?? Promise.resolve();
      const next = previous.catch(() => undefined).then(work);
      connection.submitting = next;
      return next;
    },
    close() {
      for (const connection of connections.values()) if (connection.keepAlive) clearInterval(connection.keepAlive);
      connections.clear();
    },
  };
}
