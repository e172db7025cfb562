import { defineBroker } from '../../core/define.ts';
import { tradovateDescriptor } from './descriptor.ts';

export default defineBroker({
  descriptor: tradovateDescriptor,
  load: async () => (await import('./adapter.ts')).createTradovateBroker(),
});
