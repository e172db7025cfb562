import { defineBroker } from '../../core/define.ts';
import { etradeDescriptor } from './descriptor.ts';

export default defineBroker({
  descriptor: etradeDescriptor,
  load: async () => (await import('./adapter.ts')).createEtradeBroker(),
});
