import { defineBroker } from '../../core/define.ts';
import { createPaperBroker } from './adapter.ts';
import { paperDescriptor } from './descriptor.ts';
import { createMemoryPaperStore } from './store.ts';

export { createAccountState, type Known, type PaperChanges, type PaperSource } from './account-state.ts';
export type { PaperAccountView, PaperFillView, PaperOrderView, PaperPositionView } from './account-view.ts';
export {
  createPaperBroker,
  DEFAULT_STARTING_CASH,
  isPaperBroker,
  type PaperBroker,
  type PaperBrokerOptions,
  toOrderResponse,
} from './adapter.ts';
export { type Outcome, type PaperWork, runBatch } from './batch.ts';
export { paperDescriptor } from './descriptor.ts';
export { createInstruments } from './instruments.ts';
export { ALWAYS_REACHED, type Reach, reachLevels } from './matching.ts';
export { SYMBOL_NOT_FOUND } from './placing.ts';
export { createQueuedPaperStore } from './queued-store.ts';
export { createSyntheticQuote, type QuoteSource } from './quotes.ts';
export {
  createMemoryPaperStore,
  type PaperStore,
  type PaperStoreTransaction,
  type TransactionHint,
} from './store.ts';
export { readSymbolFile } from './symbol-file.ts';
export { builtInSymbols, type ListedSymbol, SymbolListError } from './symbol-list.ts';
export type {
  PaperAccount,
  PaperBracket,
  PaperLeg,
  PaperOrder,
  PaperOrderStatus,
  PaperPosition,
  PaperSymbolState,
} from './types.ts';

/** In memory; the server builds paper over its PostgreSQL store instead (apps/server/src/brokers.ts). */
export default defineBroker({
  descriptor: paperDescriptor,
  load: () => Promise.resolve(createPaperBroker({ store: createMemoryPaperStore() })),
});
