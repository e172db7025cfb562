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
