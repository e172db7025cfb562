import { defineBroker } from '../../core/define.ts';
import { createBitmexBroker } from './adapter.ts';
import { bitmexDescriptor } from './descriptor.ts';

export default defineBroker({ descriptor: bitmexDescriptor, create: () => createBitmexBroker() });
