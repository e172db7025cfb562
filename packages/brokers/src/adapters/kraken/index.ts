import { defineBroker } from '../../core/define.ts';
import { krakenDescriptor } from './descriptor.ts';

export default defineBroker({
  descriptor: krakenDescriptor,
  load: async () => (await import('./adapter.ts')).createKrakenBroker(),
});
