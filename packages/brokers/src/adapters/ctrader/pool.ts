// The connections this server keeps to cTrader: one per endpoint (live, demo) and application,
// shared by every user's accounts (WIRE.md: one connection serves many trader accounts), opened
// on first use and authorized once with ProtoOAApplicationAuthReq; each account on it once per
// access token with ProtoOAAccountAuthReq. A refreshed token invalidates the sessions opened with
// the old one (ProtoOAAccountsTokenInvalidatedEvent): those accounts are authorized again on
// their next call. A connection unused for IDLE_MS is closed.
import type { BrokerContext } from '../../core/broker.ts';
import { asRecord, type JsonRecord } from '../../core/json-read.ts';
import { type Connection, openConnection, type RequestOptions } from './connection.ts';
import { answerError } from './errors.ts';
import { appCredentials } from './oauth.ts';
import type { WireMessage } from './protocol.ts';

export const IDLE_MS = 5 * 60_000;

/** A connection authorized for the application. */
export interface Link {
  request(name: string, payload: JsonRecord, options: RequestOptions): Promise<WireMessage>;
  listen(listener: (message: WireMessage) => void): () => void;
  /** Authorizes the account on this connection with `accessToken`, unless it already is. */
  authorize(accountId: string, accessToken: string, signal?: AbortSignal): Promise<void>;
  /** Forgets the account's authorization (cTrader said it is gone). */
  forget(accountId: string): void;
}

export interface Pool {
  link(ctx: BrokerContext, url: string): Promise<Link>;
  /** Closes every connection (tests, shutdown). */
  close(): void;
}

/** Account ids a message says are no longer authorized on its connection. */
function droppedAccounts(message: WireMessage): string[] {
  if (message.name === 'ProtoOAAccountsTokenInvalidatedEvent') {
    const ids = message.payload.ctidTraderAccountIds;
    return Array.isArray(ids) ? ids.map(String) : [];
  }
  if (message.name === 'ProtoOAAccountDisconnectEvent') return [String(message.payload.ctidTraderAccountId)];
  return [];
}

async function createLink(connection: Connection, touch: () => void): Promise<Link> {
  const authorized = new Map<string, string>();
  const pending = new Map<string, Promise<void>>();
  connection.listen((message) => {
    for (const id of droppedAccounts(message)) authorized.delete(id);
    if (message.name === 'ProtoOAClientDisconnectEvent') connection.close();
  });
  const request: Link['request'] = (name, payload, options) => {
    touch();
    return connection.request(name, payload, options);
  };

  async function authorizeNow(accountId: string, accessToken: string, signal?: AbortSignal) {
    const answer = await request(
      'ProtoOAAccountAuthReq',
      { ctidTraderAccountId: Number(accountId), accessToken },
      { mutating: false, ...(signal ? { signal } : {}) },
    );
    // Authorized before (another caller, the same token): cTrader says so, and that is what we want.
    const error = answer.name === 'ProtoOAAccountAuthRes' ? undefined : answerError(answer);
    if (error && asRecord(answer.payload)?.errorCode !== 'ALREADY_LOGGED_IN') throw error;
    authorized.set(accountId, accessToken);
  }

  return {
    request,
    listen: (listener) => connection.listen(listener),
    forget: (accountId) => authorized.delete(accountId),
    authorize(accountId, accessToken, signal) {
      if (authorized.get(accountId) === accessToken) return Promise.resolve();
      const key = `${accountId} ${accessToken}`;
      const running = pending.get(key);
      if (running) return running;
      const work = authorizeNow(accountId, accessToken, signal).finally(() => pending.delete(key));
      pending.set(key, work);
      return work;
    },
  };
}

interface Entry {
  link?: Promise<Link>;
  connection?: Connection;
  idle?: NodeJS.Timeout;
}

export function createPool(): Pool {
  const links = new Map<string, Entry>();

  async function open(ctx: BrokerContext, url: string, entry: Entry): Promise<Link> {
    const { clientId, clientSecret } = appCredentials(ctx);
    const connection = await openConnection(url, ctx.signal);
    entry.connection = connection;
    const touch = () => {
      if (entry.idle) clearTimeout(entry.idle);
      entry.idle = setTimeout(() => connection.close(), IDLE_MS);
      entry.idle.unref();
    };
    const link = await createLink(connection, touch);
    const answer = await link.request(
      'ProtoOAApplicationAuthReq',
      { clientId, clientSecret },
      { mutating: false, ...(ctx.signal ? { signal: ctx.signal } : {}) },
    );
    if (answer.name !== 'ProtoOAApplicationAuthRes') {
      connection.close();
      throw answerError(answer);
    }
    return link;
  }

  return {
    link(ctx, url) {
      const key = `${url} ${ctx.clientId ?? ''}`;
      const known = links.get(key);
      if (known?.link && (!known.connection || known.connection.open)) return known.link;
      const entry: Entry = {};
      entry.link = open(ctx, url, entry);
      links.set(key, entry);
      entry.link.catch(() => {
        if (links.get(key) === entry) links.delete(key);
      });
      return entry.link;
    },
    close() {
      for (const entry of links.values()) {
        if (entry.idle) clearTimeout(entry.idle);
        entry.connection?.close();
      }
      links.clear();
    },
  };
}
