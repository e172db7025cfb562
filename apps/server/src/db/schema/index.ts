// The database schema, one file per domain. drizzle-kit generates db/migrations from it.
export * from './users.ts';
