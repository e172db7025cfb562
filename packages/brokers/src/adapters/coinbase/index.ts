export { createCoinbaseBroker } from './adapter.ts';
export { coinbaseDescriptor } from './descriptor.ts';
