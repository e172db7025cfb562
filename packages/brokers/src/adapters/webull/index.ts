import { defineBroker } from '../../core/define.ts';
import { webullDescriptor } from './descriptor.ts';

export default defineBroker({
  descriptor: webullDescriptor,
  load: async () => (await import('./adapter.ts')).createWebullBroker(),
});
