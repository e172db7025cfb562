export { createTrading212Broker, type Trading212BrokerOptions } from './adapter.ts';
export { TRADING212_TITLE, trading212Descriptor } from './descriptor.ts';
