export * from './adapters/paper/index.ts';
export * from './core/broker.ts';
export * from './core/context.ts';
export * from './core/errors.ts';
export * from './core/http.ts';
export * from './core/registry.ts';
