import { defineBroker } from '../../core/define.ts';
import { alpacaDescriptor } from './descriptor.ts';

export default defineBroker({
  descriptor: alpacaDescriptor,
  load: async () => (await import('./adapter.ts')).createAlpacaBroker(),
});
