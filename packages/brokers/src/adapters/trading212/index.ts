import { defineBroker } from '../../core/define.ts';
import { createTrading212Broker } from './adapter.ts';
import { trading212Descriptor } from './descriptor.ts';

export default defineBroker({ descriptor: trading212Descriptor, create: () => createTrading212Broker() });
