// A refreshed broker session the database did not take (a write or commit that failed after the
// broker answered). Brokers with single-use refresh tokens (Questrade, Schwab, tastytrade, Saxo)
// have spent the stored one by then: a refresh with it again is refused, which would deactivate a
// working connection. So the fresh session is kept in this process: it serves calls meanwhile, no
// refresh is made with the spent token, and it is saved again (soon, on each refresher pass, and
// at shutdown) until the database takes it. Saved only while the row still holds the secrets that
// were spent: a reconnect (or a commit that did go through) meanwhile wins.
import type { BrokerSession } from '@router/brokers';
import { openSecrets, sealSecrets } from '../../crypto/secrets.ts';
import { type ConnectorRow, lockConnector, updateConnector } from '../../db/repositories/connectors.repository.ts';
import type { Transaction } from '../../db/repositories/executor.ts';
import { dropStaleConnectorNotices } from '../../db/repositories/notification-maintenance.repository.ts';
import { type FailureStreak, failureStreak } from '../../failure-streak.ts';
import { perServices } from '../../per-services.ts';
import type { Services } from '../../services.ts';
import { type CachedSession, forgetSession, storeSession } from './session-cache.ts';

const FIRST_RETRY_MS = 1_000;
const MAX_RETRY_MS = 60_000;

interface Kept {
  /** connectors.updated_at (ms) of the row whose secrets the refresh spent. */
  spentVersion: number;
  spentSecrets: Record<string, string>;
  session: BrokerSession;
  streak: FailureStreak;
  retryMs: number;
  timer?: NodeJS.Timeout;
  saving?: Promise<CachedSession | undefined>;
}

const keptOf = perServices(() => new Map<number, Kept>());

/** Writes a refreshed session into the locked row (a warning of the expiry it moved is not sent late). */
export async function saveRefreshed(services: Services, tx: Transaction, row: ConnectorRow, next: BrokerSession) {
  const sealed = sealSecrets(services.secretsKey, row.key, next.secrets);
  const saved = await updateConnector(tx, row.id, {
    secrets: sealed.data,
    secretsKeyId: sealed.keyId,
    expiresAt: next.expiresAt === undefined ? row.expiresAt : new Date(next.expiresAt),
    refreshAt: next.refreshAt === undefined ? null : new Date(next.refreshAt),
    refreshSentAt: null,
  });
  if (saved && saved.expiresAt?.getTime() !== row.expiresAt?.getTime())
    await dropStaleConnectorNotices(tx, row.id, false);
  return saved;
}

/** The fields stored (JSON, as sealed): one an adapter left undefined is not. */
const storedFields = (secrets: Record<string, string>) =>
  Object.entries(secrets).filter(([, value]) => value !== undefined);

const sameSecrets = (stored: Record<string, string>, held: Record<string, string>) => {
  const fields = storedFields(held);
  return fields.length === storedFields(stored).length && fields.every(([key, value]) => stored[key] === value);
};

/** The row is active and still holds these secrets (no reconnect since they were read). */
export function holdsSecrets(services: Services, row: ConnectorRow, spent: Record<string, string>): boolean {
  if (!row.isActive || !row.secrets || !row.secretsKeyId) return false;
  try {
    const secrets = openSecrets(services.secretsKey, row.key, { data: row.secrets, keyId: row.secretsKeyId });
    return sameSecrets(secrets, spent);
  } catch {
    return false;
  }
}

/**
 * Keeps a refreshed session the database refused (`error`), and schedules saving it. The entry
 * returned serves callers holding the spent version.
 */
export function keepUnsaved(
  services: Services,
  id: number,
  spent: { version: number; secrets: Record<string, string> },
  session: BrokerSession,
  error: unknown,
): CachedSession {
  const kept: Kept = {
    spentVersion: spent.version,
    spentSecrets: spent.secrets,
    session,
    streak: failureStreak(services.log, 'refreshed broker session not saved: kept in memory, saving again'),
    retryMs: FIRST_RETRY_MS,
  };
  const all = keptOf(services);
  const before = all.get(id);
  if (before?.timer) clearTimeout(before.timer);
  all.set(id, kept);
  kept.streak.failed(error, { connectorId: id });
  schedule(services, id, kept);
  const entry = { updatedAt: spent.version, session };
  storeSession(services, id, entry);
  return entry;
}

function schedule(services: Services, id: number, kept: Kept): void {
  kept.timer = setTimeout(() => {
    kept.timer = undefined;
    void saveKept(services, id);
  }, kept.retryMs);
  kept.timer.unref();
  kept.retryMs = Math.min(kept.retryMs * 2, MAX_RETRY_MS);
}

/** The kept session of a connector, if any. */
export function keptSession(services: Services, id: number): CachedSession | undefined {
  const kept = keptOf(services).get(id);
  return kept && { updatedAt: kept.spentVersion, session: kept.session };
}

/**
 * Tries to save the kept session of `id` now. Resolves with the saved entry, the kept one again
 * when the database still fails (retried later), or undefined when nothing is kept (any more):
 * the row holds other secrets, and is read again.
 */
export function saveKept(services: Services, id: number): Promise<CachedSession | undefined> {
  const kept = keptOf(services).get(id);
  if (!kept) return Promise.resolve(undefined);
  kept.saving ??= services.db
    .transaction(async (tx) => {
      const row = await lockConnector(tx, id);
      if (!row || !holdsSecrets(services, row, kept.spentSecrets)) return undefined;
      const saved = await saveRefreshed(services, tx, row, kept.session);
      return saved && { updatedAt: saved.updatedAt.getTime(), session: kept.session };
    })
    .then(
      (entry) => {
        if (kept.timer) clearTimeout(kept.timer);
        kept.streak.succeeded();
        // A newer refresh kept meanwhile (it spent what this saved) is its own to save.
        if (keptOf(services).get(id) !== kept) return keptSession(services, id);
        keptOf(services).delete(id);
        if (entry) storeSession(services, id, entry);
        else forgetSession(services, id);
        return entry;
      },
      (error: unknown) => {
        kept.streak.failed(error, { connectorId: id });
        if (!kept.timer && keptOf(services).get(id) === kept) schedule(services, id, kept);
        return { updatedAt: kept.spentVersion, session: kept.session };
      },
    )
    .finally(() => {
      kept.saving = undefined;
    });
  return kept.saving;
}

/** Tries to save every kept session now (a refresher pass, shutdown). */
export async function saveKeptSessions(services: Services): Promise<void> {
  const ids = [...keptOf(services).keys()];
  await Promise.all(ids.map((id) => saveKept(services, id)));
}
