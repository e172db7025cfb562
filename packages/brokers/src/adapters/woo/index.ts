export { createWooBroker } from './adapter.ts';
export { wooDescriptor } from './descriptor.ts';
