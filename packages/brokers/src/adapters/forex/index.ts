import { defineBroker } from '../../core/define.ts';
import { forexDescriptor } from './descriptor.ts';

export default defineBroker({
  descriptor: forexDescriptor,
  load: async () => (await import('./adapter.ts')).createForexBroker(),
});
