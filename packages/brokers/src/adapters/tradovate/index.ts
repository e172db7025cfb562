import { defineBroker } from '../../core/define.ts';
import { createTradovateBroker } from './adapter.ts';
import { tradovateDescriptor } from './descriptor.ts';

export default defineBroker({ descriptor: tradovateDescriptor, create: () => createTradovateBroker() });
