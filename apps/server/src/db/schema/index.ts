// The database schema, one file per domain. drizzle-kit generates db/migrations from it.
export * from './accounts.ts';
export * from './actions.ts';
export * from './billing.ts';
export * from './connectors.ts';
export * from './credit-ledger.ts';
export * from './email-tokens.ts';
export * from './hooks.ts';
export * from './notifications.ts';
export * from './oidc.ts';
export * from './paper.ts';
export * from './rate-limits.ts';
export * from './recovery-codes.ts';
export * from './sessions.ts';
export * from './signals.ts';
export * from './user-apps.ts';
export * from './users.ts';
