import { defineBroker } from '../../core/define.ts';
import { createTradierBroker } from './adapter.ts';
import { tradierDescriptor } from './descriptor.ts';

export default defineBroker({ descriptor: tradierDescriptor, create: () => createTradierBroker() });
