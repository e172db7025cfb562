import { defineBroker } from '../../core/define.ts';
import { rithmicDescriptor } from './descriptor.ts';

export default defineBroker({
  descriptor: rithmicDescriptor,
  load: async () => (await import('./adapter.ts')).createRithmicBroker(),
});
