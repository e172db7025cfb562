export { createTradierBroker, type TradierBrokerOptions } from './adapter.ts';
export { TRADIER_ENVIRONMENTS, tradierDescriptor } from './descriptor.ts';
