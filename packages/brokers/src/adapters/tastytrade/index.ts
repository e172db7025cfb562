import { defineBroker } from '../../core/define.ts';
import { tastytradeDescriptor } from './descriptor.ts';

export default defineBroker({
  descriptor: tastytradeDescriptor,
  load: async () => (await import('./adapter.ts')).createTastytradeBroker(),
});
