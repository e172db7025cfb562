export { createKrakenBroker } from './adapter.ts';
export { krakenDescriptor } from './descriptor.ts';
