import { defineBroker } from '../../core/define.ts';
import { robinhoodDescriptor } from './descriptor.ts';

export default defineBroker({
  descriptor: robinhoodDescriptor,
  load: async () => (await import('./adapter.ts')).createRobinhoodBroker(),
});
