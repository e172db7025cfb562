import { sql } from 'drizzle-orm';
import { bigint, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/** SPEC §3 User. `group` is the role bit mask of SPEC §6 (1 admin, 4 customer, 16 professional). */
export const users = pgTable(
  'users',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    key: text('key').notNull().unique(),
    email: text('email').notNull(),
    group: integer('group').notNull().default(4),
    firstName: text('first_name'),
    lastName: text('last_name'),
    /** argon2id PHC string; null for accounts created by social sign-in. */
    passwordHash: text('password_hash'),
    emailConfirmedAt: timestamp('email_confirmed_at', { withTimezone: true }),
    /** TOTP secret sealed with the secrets key (AES-256-GCM); pending until passcodeActiveAt. */
    passcodeSecret: text('passcode_secret'),
    passcodeActiveAt: timestamp('passcode_active_at', { withTimezone: true }),
    /** Last accepted TOTP time step: a code is accepted once. */
    passcodeLastStep: bigint('passcode_last_step', { mode: 'number' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('users_email_lower_idx').on(sql`lower(${t.email})`)],
);
