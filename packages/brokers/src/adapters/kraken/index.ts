import { defineBroker } from '../../core/define.ts';
import { createKrakenBroker } from './adapter.ts';
import { krakenDescriptor } from './descriptor.ts';

export default defineBroker({ descriptor: krakenDescriptor, create: () => createKrakenBroker() });
