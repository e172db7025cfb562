import { defineBroker } from '../../core/define.ts';
import { ctraderDescriptor } from './descriptor.ts';

export default defineBroker({
  descriptor: ctraderDescriptor,
  load: async () => (await import('./adapter.ts')).createCtraderBroker(),
});
