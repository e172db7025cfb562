import { defineBroker } from '../../core/define.ts';
import { createRithmicBroker } from './adapter.ts';
import { rithmicDescriptor } from './descriptor.ts';

export default defineBroker({ descriptor: rithmicDescriptor, create: () => createRithmicBroker() });
