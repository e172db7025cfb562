import { defineBroker } from '../../core/define.ts';
import { createSaxoBroker } from './adapter.ts';
import { saxoDescriptor } from './descriptor.ts';

export default defineBroker({ descriptor: saxoDescriptor, create: () => createSaxoBroker() });
