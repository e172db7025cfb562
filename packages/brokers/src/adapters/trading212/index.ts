import { defineBroker } from '../../core/define.ts';
import { trading212Descriptor } from './descriptor.ts';

export default defineBroker({
  descriptor: trading212Descriptor,
  load: async () => (await import('./adapter.ts')).createTrading212Broker(),
});
