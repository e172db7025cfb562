// A PaperStore queueing transactions per account: while a batch of an account runs, its next
// transactions wait, and the next batch takes them all (up to a cap). Callers learn their
// outcome once the whole batch is done, so a store that commits a batch at once never reports
// a result it has not made durable.
import type { Outcome, PaperWork } from './batch.ts';
import type { PaperStore, TransactionHint } from './store.ts';

/**
 * Runs works of one account in order; throws when the batch as a whole failed. `hint`: what the
 * works said they will look up (their TransactionHints together), for one read up front.
 */
export type RunPaperBatch = (
  accountId: string,
  works: PaperWork[],
  hint: Required<TransactionHint>,
) => Promise<Outcome[]>;

interface Queued {
  work: PaperWork;
  hint: TransactionHint | undefined;
  settle: (outcome: Outcome) => void;
}

export function createQueuedPaperStore(runBatch: RunPaperBatch, maxBatch = 500): PaperStore {
  /** Transactions waiting per account; an account is present while its batches run. */
  const queues = new Map<string, Queued[]>();

  async function drain(accountId: string, queue: Queued[]): Promise<void> {
    while (queue.length > 0) {
      const batch = queue.splice(0, maxBatch);
      let outcomes: Outcome[];
      try {
        outcomes = await runBatch(
          accountId,
          batch.map((queued) => queued.work),
          {
            clientOrderIds: batch.flatMap((queued) => queued.hint?.clientOrderIds ?? []),
            symbols: [...new Set(batch.flatMap((queued) => queued.hint?.symbols ?? []))],
          },
        );
      } catch (error) {
        outcomes = batch.map(() => ({ ok: false, error }));
      }
      batch.forEach((queued, i) => {
        queued.settle(outcomes[i] ?? { ok: false, error: new Error('paper batch returned no outcome') });
      });
    }
    queues.delete(accountId);
  }

  return {
    transaction<T>(accountId: string, work: PaperWork<T>, hint?: TransactionHint): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        const settle = (outcome: Outcome) => (outcome.ok ? resolve(outcome.value as T) : reject(outcome.error));
        const queue = queues.get(accountId);
        if (queue) {
          queue.push({ work, hint, settle });
          return;
        }
        const started: Queued[] = [{ work, hint, settle }];
        queues.set(accountId, started);
        // From the next microtask, so calls made together start as one batch.
        queueMicrotask(() => void drain(accountId, started));
      });
    },
  };
}
