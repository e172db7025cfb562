import { bigint, index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/**
 * Bearer credentials: sign-in sessions, API secret tokens (SPEC §3 UserToken) and the short
 * second-factor sessions, and one-time sign-in tokens (`signin`, exchanged by
 * `signin(type: "token", issuer "id")`). Only the SHA-256 of a token is stored.
 */
export const sessions = pgTable(
  'sessions',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    /** Public identifier (UserToken.key); never a credential. */
    key: text('key').notNull().unique(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['session', 'api', 'mfa', 'signin'] }).notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    /** Last 4 characters of an API token, shown in lists. */
    suffix: text('suffix'),
    metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull().default({}),
    address: text('address'),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('sessions_user_kind_idx').on(t.userId, t.kind)],
);
