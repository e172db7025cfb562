import { defineBroker } from '../../core/define.ts';
import { schwabDescriptor } from './descriptor.ts';

export default defineBroker({
  descriptor: schwabDescriptor,
  load: async () => (await import('./adapter.ts')).createSchwabBroker(),
});
