import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { users } from './users.ts';

export const bytea = customType<{ data: Buffer }>({ dataType: () => 'bytea' });

/** One account at the broker, as stored (SPEC §3 Connector.accounts); `name` may be renamed by the user. */
export interface StoredBrokerAccount {
  id: string;
  name: string;
  dataTitle?: string;
  dataType?: string;
  dataCurrency?: string;
  demo: boolean;
}

/**
 * A broker connection (SPEC §3 Connector). Secrets (credentials or OAuth tokens) are AES-256-GCM
 * encrypted with the row key as additional authenticated data and never leave the server.
 * A pending OAuth connection has `oauth_state` set and is inactive until the callback.
 */
export const connectors = pgTable(
  'connectors',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    key: text('key').notNull().unique(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    providerName: text('provider_name').notNull(),
    /** SPEC §3 status bits: RESTRICTED 8, FOLLOWERS 32, NOTIFICATIONS 64. */
    status: integer('status').notNull().default(0),
    isActive: boolean('is_active').notNull().default(false),
    isDemo: boolean('is_demo').notNull().default(false),
    accounts: jsonb('accounts').$type<StoredBrokerAccount[]>().notNull().default([]),
    branch: text('branch'),
    secrets: bytea('secrets'),
    secretsKeyId: text('secrets_key_id'),
    oauthState: text('oauth_state'),
    /** When the longest-lived credential expires (the connector shows 'expired' after it). */
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    /** When the access token must be refreshed (a job does it before then). */
    refreshAt: timestamp('refresh_at', { withTimezone: true }),
    /**
     * When a refresh was sent to the broker with the stored secrets; cleared when its renewal is
     * stored (or the broker did not make it) and by a reconnect. While set, the stored refresh
     * token may be spent: no other instance sends it again (kept-sessions.ts).
     */
    refreshSentAt: timestamp('refresh_sent_at', { withTimezone: true }),
    deactivatedReason: text('deactivated_reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('connectors_user_idx').on(t.userId),
    uniqueIndex('connectors_oauth_state_idx').on(t.oauthState).where(sql`${t.oauthState} is not null`),
    index('connectors_refresh_idx').on(t.refreshAt).where(sql`${t.isActive}`),
  ],
);
