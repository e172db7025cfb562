import { defineBroker } from '../../core/define.ts';
import { createWebullBroker } from './adapter.ts';
import { webullDescriptor } from './descriptor.ts';

export default defineBroker({ descriptor: webullDescriptor, create: () => createWebullBroker() });
