// A renewal of a connector's tokens: one at a time across instances (a session advisory lock,
// held across its transactions), and recorded as sent (refresh_sent_at, committed before the
// broker is asked) so that an instance failing to store the renewal leaves a trace the others
// read: the stored refresh token is spent, and not sent again.
import { eq, getTableColumns, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import type { Database } from '../client.ts';
import * as schema from '../schema/index.ts';
import { connectors } from '../schema/index.ts';
import type { ConnectorRow } from './connectors.repository.ts';
import type { Transaction } from './executor.ts';
import { withSessionLock } from './session-lock.ts';

/** Arbitrary, fixed: the first key of the two-key advisory locks of connector refreshes. */
const REFRESH_LOCK = 7_301_366;

export type RunTransaction = <T>(work: (tx: Transaction) => Promise<T>) => Promise<T>;

/** Runs `work` on one connection holding connector `id`'s refresh lock; `run` opens transactions on it. */
export function withRefreshLock<T>(db: Database, id: number, work: (run: RunTransaction) => Promise<T>): Promise<T> {
  return withSessionLock(db.$client, [REFRESH_LOCK, id % 2 ** 31], (client) => {
    const session = drizzle(client, { schema });
    return work((transaction) => session.transaction(transaction));
  });
}

/**
 * Locks the row; `sentPending`: a refresh was sent with its secrets less than `leaseMs` ago and
 * its renewal not stored (storing it, or a reconnect, clears refresh_sent_at).
 */
export async function lockConnectorForRefresh(
  tx: Transaction,
  id: number,
  leaseMs: number,
): Promise<{ row: ConnectorRow; sentPending: boolean } | undefined> {
  const [found] = await tx
    .select({
      row: getTableColumns(connectors),
      sentPending: sql<boolean>`coalesce(${connectors.refreshSentAt} > clock_timestamp() - make_interval(secs => ${leaseMs / 1000}), false)`,
    })
    .from(connectors)
    .where(eq(connectors.id, id))
    .for('update');
  return found;
}

/** Records that a refresh is sent with the stored secrets (updated_at stays: they are unchanged). */
export async function markRefreshSent(tx: Transaction, id: number): Promise<void> {
  await tx.update(connectors).set({ refreshSentAt: sql`clock_timestamp()` }).where(eq(connectors.id, id));
}

/** Forgets a refresh the broker did not make (refused, unreachable). */
export async function clearRefreshSent(tx: Transaction, id: number): Promise<void> {
  await tx.update(connectors).set({ refreshSentAt: null }).where(eq(connectors.id, id));
}
