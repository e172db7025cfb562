import { defineBroker } from '../../core/define.ts';
import { createTastytradeBroker } from './adapter.ts';
import { tastytradeDescriptor } from './descriptor.ts';

export default defineBroker({ descriptor: tastytradeDescriptor, create: () => createTastytradeBroker() });
