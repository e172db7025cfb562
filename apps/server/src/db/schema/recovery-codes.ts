import { bigint, pgTable, text, timestamp, unique } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/** One-time second-factor recovery codes: ten per user, kept as keyed hashes, used once. */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [unique('recovery_codes_user_code_key').on(t.userId, t.codeHash)],
);
