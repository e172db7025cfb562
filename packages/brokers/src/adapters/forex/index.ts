import { defineBroker } from '../../core/define.ts';
import { createForexBroker } from './adapter.ts';
import { forexDescriptor } from './descriptor.ts';

export default defineBroker({ descriptor: forexDescriptor, create: () => createForexBroker() });
