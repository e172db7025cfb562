import { index, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * oidc-provider's storage (its adapter contract): one row per model instance — grants,
 * authorization codes, access and refresh tokens, sessions, interactions. `account_id` (the
 * user key) and `client_id` are copied out of the payload so grants can be listed and revoked
 * per user and per application.
 */
export const oidcPayloads = pgTable(
  'oidc_payloads',
  {
    kind: text('kind').notNull(),
    id: text('id').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    uid: text('uid'),
    userCode: text('user_code'),
    grantId: text('grant_id'),
    accountId: text('account_id'),
    clientId: text('client_id'),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.kind, t.id] }),
    index('oidc_payloads_uid_idx').on(t.uid),
    index('oidc_payloads_grant_idx').on(t.grantId),
    index('oidc_payloads_account_idx').on(t.accountId, t.kind),
    index('oidc_payloads_client_idx').on(t.clientId),
    index('oidc_payloads_expires_idx').on(t.expiresAt),
  ],
);
