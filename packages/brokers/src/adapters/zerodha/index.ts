import { defineBroker } from '../../core/define.ts';
import { zerodhaDescriptor } from './descriptor.ts';

export default defineBroker({
  descriptor: zerodhaDescriptor,
  load: async () => (await import('./adapter.ts')).createZerodhaBroker(),
});
