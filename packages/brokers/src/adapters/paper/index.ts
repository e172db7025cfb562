import { defineBroker } from '../../core/define.ts';
import { createPaperBroker } from './adapter.ts';
import { paperDescriptor } from './descriptor.ts';
import { createMemoryPaperStore } from './store.ts';

export { createAccountState, type PaperChanges, type PaperSource } from './account-state.ts';
export { createPaperBroker, DEFAULT_STARTING_CASH, type PaperBrokerOptions, toOrderResponse } from './adapter.ts';
export { type Outcome, type PaperWork, runBatch } from './batch.ts';
export { paperDescriptor } from './descriptor.ts';
export { createQueuedPaperStore } from './queued-store.ts';
export { type QuoteSource, syntheticQuote } from './quotes.ts';
export {
  createMemoryPaperStore,
  type PaperStore,
  type PaperStoreTransaction,
  type TransactionHint,
} from './store.ts';
export type { PaperAccount, PaperBracket, PaperOrder, PaperOrderStatus, PaperPosition } from './types.ts';

/** In memory; the server builds paper over its PostgreSQL store instead (apps/server/src/brokers.ts). */
export default defineBroker({
  descriptor: paperDescriptor,
  create: () => createPaperBroker({ store: createMemoryPaperStore() }),
});
