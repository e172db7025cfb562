export { createBitmexBroker } from './adapter.ts';
export { bitmexDescriptor } from './descriptor.ts';
