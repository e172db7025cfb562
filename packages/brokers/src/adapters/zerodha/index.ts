import { defineBroker } from '../../core/define.ts';
import { createZerodhaBroker } from './adapter.ts';
import { zerodhaDescriptor } from './descriptor.ts';

export default defineBroker({ descriptor: zerodhaDescriptor, create: () => createZerodhaBroker() });
