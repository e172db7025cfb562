import { defineBroker } from '../../core/define.ts';
import { metatraderDescriptor } from './descriptor.ts';

export default defineBroker({
  descriptor: metatraderDescriptor,
  load: async () => (await import('./adapter.ts')).createMetatraderBroker(),
});
