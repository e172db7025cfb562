import { defineBroker } from '../../core/define.ts';
import { wooDescriptor } from './descriptor.ts';

export default defineBroker({
  descriptor: wooDescriptor,
  load: async () => (await import('./adapter.ts')).createWooBroker(),
});
