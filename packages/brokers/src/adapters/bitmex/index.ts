import { defineBroker } from '../../core/define.ts';
import { bitmexDescriptor } from './descriptor.ts';

export default defineBroker({
  descriptor: bitmexDescriptor,
  load: async () => (await import('./adapter.ts')).createBitmexBroker(),
});
