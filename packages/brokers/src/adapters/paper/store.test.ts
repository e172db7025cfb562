import { describePaperStoreContract } from './store.contract.ts';
import { createMemoryPaperStore } from './store.ts';

describePaperStoreContract('memory', async () => ({ store: createMemoryPaperStore() }));
