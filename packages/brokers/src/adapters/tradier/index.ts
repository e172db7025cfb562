import { defineBroker } from '../../core/define.ts';
import { tradierDescriptor } from './descriptor.ts';

export default defineBroker({
  descriptor: tradierDescriptor,
  load: async () => (await import('./adapter.ts')).createTradierBroker(),
});
