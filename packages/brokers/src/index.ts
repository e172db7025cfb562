// The broker contract (core/), the brokers found in adapters/ (discover.ts), and the paper
// broker's building blocks, which the server's PostgreSQL paper store is made of.
export * from './adapters/paper/index.ts';
export * from './core/broker.ts';
export * from './core/capabilities.ts';
export * from './core/context.ts';
export * from './core/define.ts';
export * from './core/errors.ts';
export * from './core/find-order.ts';
export { parseRetryAfter } from './core/http-errors.ts';
export * from './core/lookup.ts';
export { resendWithStoredToken } from './core/oauth-tokens.ts';
export * from './core/registry.ts';
export { roundToTick } from './core/ticks.ts';
export * from './core/unavailable.ts';
export * from './core/wire-log.ts';
export { brokerModules } from './discover.ts';
