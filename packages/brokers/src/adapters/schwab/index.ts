export { createSchwabBroker, type SchwabBrokerOptions } from './adapter.ts';
export { SCHWAB_TITLE, schwabDescriptor } from './descriptor.ts';
