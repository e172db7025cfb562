import { defineBroker } from '../../core/define.ts';
import { createRobinhoodBroker } from './adapter.ts';
import { robinhoodDescriptor } from './descriptor.ts';

export default defineBroker({ descriptor: robinhoodDescriptor, create: () => createRobinhoodBroker() });
