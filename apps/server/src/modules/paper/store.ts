// The paper broker's store on PostgreSQL, committing in groups. Transactions on one account
// queue in-process, so a burst on one account holds one pool connection, not one each; each
// database transaction takes all that queued (up to `maxBatch`), runs them one after the other
// over one in-memory view of the account, writes what they changed in two statements and
// commits once. Callers hear back after the commit. The advisory lock in the repository keeps
// several server instances apart.
import {
  createAccountState,
  createQueuedPaperStore,
  type Outcome,
  type PaperSource,
  type PaperStore,
  type PaperWork,
  runBatch,
} from '@router/brokers';
import type { Database } from '../../db/client.ts';
import { isDataError } from '../../db/repositories/executor.ts';
import {
  findOrdersByClientIds,
  paperSource,
  paperTransaction,
  savePaperChanges,
} from '../../db/repositories/paper.repository.ts';

export interface PostgresPaperStoreOptions {
  /** Most store transactions in one database transaction. */
  maxBatch?: number;
}

export function createPostgresPaperStore(db: Database, options: PostgresPaperStoreOptions = {}): PaperStore {
  return createQueuedPaperStore(async (accountId, works, clientOrderIds) => {
    try {
      return await commitBatch(db, accountId, works, clientOrderIds);
    } catch (error) {
      if (works.length === 1 || !isDataError(error)) throw error;
      // One work's data (a constraint it breaks, a value PostgreSQL refuses) failed the batch:
      // run each alone, so that work fails and the others commit, as separate transactions.
      const outcomes: Outcome[] = [];
      for (const work of works) outcomes.push(await commitBatch(db, accountId, [work], []).then(only, failed));
      return outcomes;
    }
  }, options.maxBatch ?? 500);
}

const only = ([outcome]: Outcome[]): Outcome => outcome ?? failed(new Error('paper batch returned no outcome'));
const failed = (error: unknown): Outcome => ({ ok: false, error });

/**
 * Runs the works in one database transaction; resolves once it is committed. The client order
 * ids they announced are read in one query first (else one query per order placed).
 */
function commitBatch(
  db: Database,
  accountId: string,
  works: PaperWork[],
  clientOrderIds: string[],
): Promise<Outcome[]> {
  return paperTransaction(db, accountId, async (tx) => {
    const reads = watched(paperSource(tx, accountId));
    const state = createAccountState(accountId, reads.source);
    if (clientOrderIds.length > 0)
      state.know(clientOrderIds, await findOrdersByClientIds(tx, accountId, clientOrderIds));
    const { outcomes, changes } = await runBatch(accountId, state, works);
    // A failed read aborted the database transaction, whatever the work that met it did next.
    const failure = reads.failure();
    if (failure) throw failure.error;
    await savePaperChanges(tx, accountId, changes);
    return outcomes;
  });
}

/** The source, keeping the first error a read threw. */
function watched(source: PaperSource): { source: PaperSource; failure(): { error: unknown } | undefined } {
  let failure: { error: unknown } | undefined;
  const watch =
    <A extends unknown[], R>(read: (...args: A) => Promise<R>) =>
    (...args: A): Promise<R> =>
      read(...args).catch((error: unknown) => {
        failure ??= { error };
        throw error;
      });
  return {
    source: {
      getAccount: watch(source.getAccount),
      getOrder: watch(source.getOrder),
      findOrderByClientId: watch(source.findOrderByClientId),
      listOpenOrders: watch(source.listOpenOrders),
    },
    failure: () => failure,
  };
}
