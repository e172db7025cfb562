export { type AlpacaBrokerOptions, createAlpacaBroker } from './adapter.ts';
export { ALPACA_ENVIRONMENTS, alpacaDescriptor } from './descriptor.ts';
