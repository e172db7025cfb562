// withBrokerSession: the one way to call a broker for a stored connection. Decrypts the secrets
// (cached per connector version), refreshes tokens once refreshAt has passed (one refresh at a
// time per connector, across instances through an advisory lock, recorded as sent before the
// broker is asked), and deactivates the connector when the broker rejects its credentials.
import { type Broker, type BrokerContext, BrokerError, type BrokerSession, isBrokerError } from '@router/brokers';
import { openSecrets } from '../../crypto/secrets.ts';
import {
  clearRefreshSent,
  lockConnectorForRefresh,
  markRefreshSent,
  withRefreshLock,
} from '../../db/repositories/connector-refresh.repository.ts';
import { findConnectorById, lockConnector } from '../../db/repositories/connectors.repository.ts';
import type { StoredBrokerAccount } from '../../db/schema/index.ts';
import { AppError } from '../../errors.ts';
import { perServices } from '../../per-services.ts';
import type { Services } from '../../services.ts';
import { deactivateConnector } from './deactivate.ts';
import { holdsSecrets, keepUnsaved, keptSession, saveKept, saveRefreshed } from './kept-sessions.ts';
import { brokerContextFor } from './provider.ts';
import { type CachedSession, cachedSession, storeSession } from './session-cache.ts';
import { CONNECTOR_DEACTIVATED_MESSAGE } from './types.ts';

/** The connector fields a broker call needs (a connectors row, or findHookForSignal's `connector`). */
export interface SessionConnector {
  id: number;
  key: string;
  providerName: string;
  isActive: boolean;
  accounts: StoredBrokerAccount[];
  secrets: Buffer | null;
  secretsKeyId: string | null;
  expiresAt: Date | null;
  refreshAt: Date | null;
  updatedAt: Date;
}

export interface BrokerCall {
  broker: Broker;
  /** Carries the caller's AbortSignal. */
  ctx: BrokerContext;
  session: BrokerSession;
}

export const UNREADABLE_SECRETS_MESSAGE = 'The broker credentials cannot be read. Please reconnect the broker.';

/** The broker session a stored connector holds (its secrets opened), active or not. */
export function openSession(services: Services, connector: SessionConnector): BrokerSession {
  if (!connector.secrets || !connector.secretsKeyId) throw new AppError('EXECUTION', CONNECTOR_DEACTIVATED_MESSAGE);
  let secrets: Record<string, string>;
  try {
    secrets = openSecrets(services.secretsKey, connector.key, {
      data: connector.secrets,
      keyId: connector.secretsKeyId,
    });
  } catch (error) {
    // Not deactivated: a wrong SECRETS_KEY is fixed by the operator, not by every user reconnecting.
    services.log.error({ err: error, connectorId: connector.id }, 'connector secrets cannot be opened');
    throw new AppError('EXECUTION', UNREADABLE_SECRETS_MESSAGE, { cause: error });
  }
  return {
    secrets,
    accounts: connector.accounts.map((account) => ({ ...account })),
    ...(connector.expiresAt ? { expiresAt: connector.expiresAt.getTime() } : {}),
    ...(connector.refreshAt ? { refreshAt: connector.refreshAt.getTime() } : {}),
  };
}

function openEntry(services: Services, connector: SessionConnector): CachedSession {
  const entry: CachedSession = { updatedAt: connector.updatedAt.getTime(), session: openSession(services, connector) };
  storeSession(services, connector.id, entry);
  return entry;
}

const due = (entry: CachedSession, now: number) =>
  entry.session.refreshAt !== undefined && entry.session.refreshAt <= now;

const refreshing = perServices(() => new Map<number, Promise<CachedSession>>());
/** The connector version (updated_at, ms) whose credentials a failed refresh sent. */
const refusedVersions = new WeakMap<object, number>();

/** Refreshes under the refresh lock; another instance's fresher secrets are taken instead. */
function refreshSession(services: Services, id: number, broker: Broker, stale: CachedSession) {
  const inflight = refreshing(services);
  const running = inflight.get(id);
  if (running) return running;
  // A session refreshed but not saved yet: saved now if the database answers, used as is if not;
  // never refreshed again from the spent token.
  const work = keptSession(services, id)
    ? saveKept(services, id)
        .then((entry) => entry ?? refreshLocked(services, id, broker, stale))
        .finally(() => inflight.delete(id))
    : refreshLocked(services, id, broker, stale).finally(() => inflight.delete(id));
  inflight.set(id, work);
  return work;
}

/**
 * How long a refresh sent by another instance, its renewal not stored, keeps this one from
 * sending the stored (spent) refresh token: that instance keeps saving its renewal meanwhile
 * (kept-sessions.ts). Past it (the instance gone), a refresh is sent: refused, the user reconnects.
 */
const SENT_LEASE_MS = 10 * 60_000;

export const RENEWAL_PENDING_MESSAGE =
  'the renewed session is being stored by another server: the current token is used meanwhile';

function refreshLocked(services: Services, id: number, broker: Broker, stale: CachedSession): Promise<CachedSession> {
  /** Set once the broker renewed the session: its spent secrets are then no good. */
  let renewed: { spent: { version: number; secrets: Record<string, string> }; session: BrokerSession } | undefined;
  return withRefreshLock(services.db, id, async (run): Promise<CachedSession> => {
    // Under the row lock: a newer stored session is taken, or the refresh is recorded as sent.
    const start = await run(async (tx) => {
      const locked = await lockConnectorForRefresh(tx, id, SENT_LEASE_MS);
      if (!locked?.row.isActive) throw new AppError('EXECUTION', CONNECTOR_DEACTIVATED_MESSAGE);
      const { row } = locked;
      let entry = stale;
      if (row.updatedAt.getTime() > stale.updatedAt) {
        entry = openEntry(services, row);
        if (!due(entry, Date.now())) return { entry };
      }
      if (locked.sentPending)
        throw new BrokerError('BrokerUnavailable', broker.descriptor.title, RENEWAL_PENDING_MESSAGE);
      await markRefreshSent(tx, id);
      return { entry, version: row.updatedAt.getTime() };
    });
    if (start.version === undefined) return start.entry;
    const { entry, version } = start;
    // No deadline: a refresh cut short could leave a rotated token unsaved.
    const next = await (broker.refresh as NonNullable<Broker['refresh']>)(
      brokerContextFor(services, broker),
      entry.session,
    ).catch(async (error: unknown) => {
      if (error && typeof error === 'object') refusedVersions.set(error, entry.updatedAt);
      await run((tx) => clearRefreshSent(tx, id)).catch((failure: unknown) =>
        services.log.warn({ err: failure, connectorId: id }, 'refresh not made: its record stays until it lapses'),
      );
      throw error;
    });
    const session = { ...next, accounts: entry.session.accounts };
    renewed = { spent: { version, secrets: entry.session.secrets }, session };
    return run(async (tx) => {
      const row = await lockConnector(tx, id);
      if (!row?.isActive) {
        renewed = undefined;
        throw new AppError('EXECUTION', CONNECTOR_DEACTIVATED_MESSAGE);
      }
      // Connected again while the broker renewed the old grant: the new grant stays.
      if (!holdsSecrets(services, row, entry.session.secrets)) {
        renewed = undefined;
        return openEntry(services, row);
      }
      const saved = await saveRefreshed(services, tx, row, next);
      if (!saved) {
        renewed = undefined;
        throw new AppError('EXECUTION', CONNECTOR_DEACTIVATED_MESSAGE);
      }
      return { updatedAt: saved.updatedAt.getTime(), session };
    });
  }).then(
    (entry) => {
      storeSession(services, id, entry);
      return entry;
    },
    (error: unknown) => {
      // The database failed after the broker rotated the tokens: keep them, and save them later.
      if (renewed) return keepUnsaved(services, id, renewed.spent, renewed.session, error);
      throw error;
    },
  );
}

async function deactivateQuietly(services: Services, id: number, reason: string, version: number): Promise<void> {
  try {
    await deactivateConnector(services, id, reason, version);
  } catch (error) {
    services.log.error({ err: error, connectorId: id }, 'connector deactivation failed');
  }
}

/**
 * A call refused for its access token (expired early, or revoked at the broker's whim: Schwab
 * does) is no refusal of the grant while that renews: a refresh under the lock decides, and the
 * connection is deactivated only when the refresh is refused too. The refused call itself is not
 * sent again. Without renewable tokens (or after a renewal in this very call) the refusal stands.
 */
async function settleRefusal(
  services: Services,
  id: number,
  broker: Broker,
  entry: CachedSession | undefined,
  error: Error,
  version: number,
): Promise<BrokerError | undefined> {
  if (!broker.refresh || entry?.session.refreshAt === undefined) {
    await deactivateQuietly(services, id, error.message, version);
    return undefined;
  }
  try {
    await refreshSession(services, id, broker, entry);
  } catch (refusal) {
    if (isBrokerError(refusal) && refusal.kind === 'AuthenticationError') {
      await deactivateQuietly(services, id, refusal.message, refusedVersions.get(refusal) ?? version);
    } else if (refusal instanceof AppError && refusal.message === CONNECTOR_DEACTIVATED_MESSAGE) {
      // Deactivated meanwhile (by another signal, on another instance, that met the refusal
      // first): the broker's refusal stands (sure: nothing placed), in SPEC's words for a
      // deactivated connection, as the signals after it read.
      const title = isBrokerError(error) ? error.brokerTitle : broker.descriptor.title;
      return new BrokerError('AuthenticationError', title, CONNECTOR_DEACTIVATED_MESSAGE, { cause: error });
    }
    // Anything else (an outage) settles nothing.
  }
  return undefined;
}

/** The session (renewed during the call or not) has passed the end it states. */
function pastItsEnd(entry: CachedSession | undefined, connector: SessionConnector): boolean {
  const end = entry?.session.expiresAt ?? connector.expiresAt?.getTime();
  return end !== undefined && end <= Date.now();
}

/**
 * Runs `work` with the connector's broker, context and session. Throws AppError EXECUTION when
 * the connector is inactive or its secrets unreadable; rethrows the broker's BrokerError as is
 * (after deactivating the connector when its kind is AuthenticationError and its credentials,
 * renewed where they renew, are refused).
 */
export async function withBrokerSession<T>(
  services: Services,
  connector: SessionConnector,
  work: (call: BrokerCall) => Promise<T>,
  options: {
    signal?: AbortSignal;
    /** The call is the renewal itself (the background refresher): a renewal that fails fails it. */
    refreshOnly?: boolean;
    /**
     * No trader waits on the call (the fill follower, reconciliation): a refusal met once the
     * session has reached its stated end (expiresAt: E*TRADE's midnight) leaves the connector as
     * it is, to show 'expired' until the trader reconnects (SPEC), as the refresher does.
     */
    background?: boolean;
  } = {},
): Promise<T> {
  if (!connector.isActive) throw new AppError('EXECUTION', CONNECTOR_DEACTIVATED_MESSAGE);
  const broker = await services.brokers.load(connector.providerName);
  if (!broker) throw new AppError('EXECUTION', `Provider ${connector.providerName} is not available`);
  // The version whose credentials the broker saw: a reconnect after it is not deactivated.
  let version = connector.updatedAt.getTime();
  let entry: CachedSession | undefined;
  /** The version the call began with: a renewal during it already checked the grant. */
  let calledWith: number | undefined;
  const failed = async (error: unknown): Promise<never> => {
    if (
      isBrokerError(error) &&
      error.kind === 'AuthenticationError' &&
      !(options.background && pastItsEnd(entry, connector))
    ) {
      const refused = refusedVersions.get(error);
      // A refused refresh, or a call refused after its session was renewed: the credentials are.
      if (refused !== undefined || calledWith === undefined || calledWith !== version)
        await deactivateQuietly(services, connector.id, error.message, refused ?? version);
      else {
        const deactivated = await settleRefusal(services, connector.id, broker, entry, error, version);
        if (deactivated) throw deactivated;
      }
    }
    throw error;
  };
  try {
    entry = cachedSession(services, connector.id, connector.updatedAt.getTime()) ?? openEntry(services, connector);
    version = entry.updatedAt;
    /** A renewal the broker could not make now (its token service down): not tried again in this call. */
    let outage: BrokerError | undefined;
    if (broker.refresh && due(entry, Date.now())) {
      try {
        entry = await refreshSession(services, connector.id, broker, entry);
      } catch (error) {
        // Tokens are renewed a margin before they expire: the access token still serves this
        // call (once expired, the adapter or the broker refuses it, and nothing is sent twice).
        // A refusal of the grant stands.
        if (options.refreshOnly || !isBrokerError(error)) throw error;
        if (error.kind !== 'BrokerUnavailable' && error.kind !== 'RateLimited') throw error;
        outage = error;
        services.log.warn(
          { connectorId: connector.id, broker: connector.providerName, reason: error.message },
          'token refresh failed: the call goes on with the current token',
        );
      }
    }
    version = entry.updatedAt;
    calledWith = version;
    const ctx = brokerContextFor(services, broker, options.signal);
    // A token the broker finds stale during the call is renewed here too: under the refresh lock and
    // stored, so a rotated refresh token is not kept only in this process (lost on a restart,
    // spent behind another instance's back).
    const refreshSessionNow = async () => {
      if (outage) throw outage;
      const renewed = await refreshSession(services, connector.id, broker, entry as CachedSession);
      entry = renewed;
      version = renewed.updatedAt;
      return renewed.session;
    };
    // A token refused during the call may have been replaced by another instance's refresh: the
    // stored session, read again (taken by this process too), and the call's from then on.
    const storedSession = async () => {
      const row = await findConnectorById(services.db, connector.id);
      const current = entry as CachedSession;
      if (!row?.isActive || row.updatedAt.getTime() <= current.updatedAt) return current.session;
      entry = openEntry(services, row);
      version = entry.updatedAt;
      calledWith = version;
      return entry.session;
    };
    // Chained, not awaited: a call waiting for its broker (a burst's backlog) keeps no suspended
    // frame of this function; a failure is settled as one thrown before the call.
    return work({
      broker,
      ctx: broker.refresh ? { ...ctx, refreshSession: refreshSessionNow, storedSession } : ctx,
      session: entry.session,
    }).catch(failed);
  } catch (error) {
    return failed(error);
  }
}
