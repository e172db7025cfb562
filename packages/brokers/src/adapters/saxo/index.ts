import { defineBroker } from '../../core/define.ts';
import { saxoDescriptor } from './descriptor.ts';

export default defineBroker({
  descriptor: saxoDescriptor,
  load: async () => (await import('./adapter.ts')).createSaxoBroker(),
});
