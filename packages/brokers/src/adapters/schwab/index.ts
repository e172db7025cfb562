import { defineBroker } from '../../core/define.ts';
import { createSchwabBroker } from './adapter.ts';
import { schwabDescriptor } from './descriptor.ts';

export default defineBroker({ descriptor: schwabDescriptor, create: () => createSchwabBroker() });
