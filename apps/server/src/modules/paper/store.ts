// The paper broker's store on PostgreSQL, committing in groups. Transactions on one account
// queue in-process, so a burst on one account holds one pool connection, not one each; each
// database transaction takes all that queued (up to `maxBatch`), reads what they announced
// (account, client order ids, symbols) in one query, runs them one after the other over one
// in-memory view of the account, writes what they changed in one statement and
// commits once. Callers hear back after the commit. The advisory lock in the repository keeps
// several server instances apart.
import {
  createAccountState,
  createQueuedPaperStore,
  type Outcome,
  type PaperStore,
  type PaperWork,
  runBatch,
  type TransactionHint,
} from '@router/brokers';
import type { Database } from '../../db/client.ts';
import { isDataError } from '../../db/repositories/executor.ts';
import { paperSource, paperTransaction, readAhead, savePaperChanges } from '../../db/repositories/paper.repository.ts';

export interface PostgresPaperStoreOptions {
  /** Most store transactions in one database transaction. */
  maxBatch?: number;
}

const NO_HINT: Required<TransactionHint> = { clientOrderIds: [], symbols: [] };

export function createPostgresPaperStore(db: Database, options: PostgresPaperStoreOptions = {}): PaperStore {
  return createQueuedPaperStore(async (accountId, works, hint) => {
    try {
      return await commitBatch(db, accountId, works, hint);
    } catch (error) {
      if (works.length === 1 || !isDataError(error)) throw error;
      // One work's data (a constraint it breaks, a value PostgreSQL refuses) failed the batch:
      // run each alone, so that work fails and the others commit, as separate transactions.
      const outcomes: Outcome[] = [];
      for (const work of works) outcomes.push(await commitBatch(db, accountId, [work], NO_HINT).then(only, failed));
      return outcomes;
    }
  }, options.maxBatch ?? 500);
}

const only = ([outcome]: Outcome[]): Outcome => outcome ?? failed(new Error('paper batch returned no outcome'));
const failed = (error: unknown): Outcome => ({ ok: false, error });

/** Runs the works in one database transaction; resolves once it is committed. */
function commitBatch(
  db: Database,
  accountId: string,
  works: PaperWork[],
  hint: Required<TransactionHint>,
): Promise<Outcome[]> {
  return paperTransaction(db, accountId, async (tx) => {
    const source = paperSource(tx, accountId);
    const state = createAccountState(accountId, source);
    state.know(await readAhead(tx, accountId, hint.clientOrderIds, hint.symbols));
    const { outcomes, changes } = await runBatch(accountId, state, works);
    // A failed read aborted the database transaction, whatever the work that met it did next.
    const failure = source.failure();
    if (failure) throw failure.error;
    await savePaperChanges(tx, accountId, changes);
    return outcomes;
  });
}
