import { defineBroker } from '../../core/define.ts';
import { ibkrDescriptor } from './descriptor.ts';

export default defineBroker({
  descriptor: ibkrDescriptor,
  load: async () => (await import('./adapter.ts')).createIbkrBroker(),
});
