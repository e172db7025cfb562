// The database schema, one file per domain. drizzle-kit generates db/migrations from it.
export * from './connectors.ts';
export * from './hooks.ts';
export * from './notifications.ts';
export * from './signals.ts';
export * from './users.ts';
