import { defineBroker } from '../../core/define.ts';
import { createWooBroker } from './adapter.ts';
import { wooDescriptor } from './descriptor.ts';

export default defineBroker({ descriptor: wooDescriptor, create: () => createWooBroker() });
