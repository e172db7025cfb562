// The paper broker's store on PostgreSQL. Transactions on one account are queued in-process
// first, so a burst of signals on one account holds one pool connection, not one each; the
// advisory lock in the repository keeps several server instances apart.
import type { PaperStore } from '@router/brokers';
import type { Database } from '../../db/client.ts';
import { paperTransaction } from '../../db/repositories/paper.repository.ts';

export function createPostgresPaperStore(db: Database): PaperStore {
  const queues = new Map<string, Promise<unknown>>();
  return {
    transaction(accountId, work) {
      const previous = queues.get(accountId) ?? Promise.resolve();
      const result = previous.then(() => paperTransaction(db, accountId, work));
      const settled = result.catch(() => undefined);
      queues.set(accountId, settled);
      void settled.then(() => {
        if (queues.get(accountId) === settled) queues.delete(accountId);
      });
      return result;
    },
  };
}
