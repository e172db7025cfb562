import { defineBroker } from '../../core/define.ts';
import { questradeDescriptor } from './descriptor.ts';

export default defineBroker({
  descriptor: questradeDescriptor,
  load: async () => (await import('./adapter.ts')).createQuestradeBroker(),
});
