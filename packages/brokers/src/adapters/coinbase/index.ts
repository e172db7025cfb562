import { defineBroker } from '../../core/define.ts';
import { coinbaseDescriptor } from './descriptor.ts';

export default defineBroker({
  descriptor: coinbaseDescriptor,
  load: async () => (await import('./adapter.ts')).createCoinbaseBroker(),
});
