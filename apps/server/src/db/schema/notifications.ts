import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { bytea, connectors } from './connectors.ts';
import { users } from './users.ts';

/**
 * SPEC §3 Notification: type flags HOOK 1, EMAIL 2, PUSH 4, SMS 8; metadata {email} or {url},
 * and `events` (omitted: all). A webhook's signing secret is sealed like broker secrets.
 */
export const notifications = pgTable(
  'notifications',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    key: text('key').notNull().unique(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    connectorId: bigint('connector_id', { mode: 'number' })
      .notNull()
      .references(() => connectors.id, { onDelete: 'cascade' }),
    accountId: text('account_id').notNull(),
    type: integer('type').notNull(),
    isEnabled: boolean('is_enabled').notNull().default(true),
    metadata: jsonb('metadata').$type<{ email?: string; url?: string; events?: string[] }>().notNull(),
    /** HOOK: {current, previous?} whsec_ secrets, AES-256-GCM sealed with the row key as AAD. */
    secret: bytea('secret'),
    secretKeyId: text('secret_key_id'),
    /** The previous secret still signs (beside the new one) for a day after a rotation. */
    secretRotatedAt: timestamp('secret_rotated_at', { withTimezone: true }),
    /**
     * First failure of the current streak: failed attempts since the last success, none more than
     * a day after the one before. 3 days of it disable the setting.
     */
    failingSince: timestamp('failing_since', { withTimezone: true }),
    /** The streak's last failed attempt: a failure long after it starts a new streak. */
    lastFailedAt: timestamp('last_failed_at', { withTimezone: true }),
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
    disabledReason: text('disabled_reason'),
    /** When the user was told by email that the setting was disabled. */
    disabledNoticeAt: timestamp('disabled_notice_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('notifications_connector_idx').on(t.connectorId, t.accountId),
    /** One setting per type and account: creating it again updates it. */
    uniqueIndex('notifications_type_idx').on(t.connectorId, t.accountId, t.type),
    // Events of a user, not of one account (credits), fan out to all the user's settings.
    index('notifications_user_idx').on(t.userId),
  ],
);

/**
 * The outbox: one row per event that matched at least one enabled setting when it was emitted,
 * written in the emitter's transaction. `id` is the webhook-id of every delivery and retry.
 */
export const notificationEvents = pgTable(
  'notification_events',
  {
    id: text('id').primaryKey(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    connectorId: bigint('connector_id', { mode: 'number' }),
    accountId: text('account_id'),
    type: text('type').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // connector.expiring is sent once per expiry: looked up by connector and type.
    index('notification_events_connector_idx').on(t.connectorId, t.type).where(sql`${t.connectorId} is not null`),
    index('notification_events_created_idx').on(t.createdAt),
  ],
);

/**
 * One event for one setting: the queue row and the delivery log entry. Pending rows are due at
 * `next_attempt_at`; a worker claims them by locking them while it sends (see
 * notification-deliveries.repository.ts).
 */
export const notificationDeliveries = pgTable(
  'notification_deliveries',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    eventId: text('event_id')
      .notNull()
      .references(() => notificationEvents.id, { onDelete: 'cascade' }),
    notificationId: bigint('notification_id', { mode: 'number' })
      .notNull()
      .references(() => notifications.id, { onDelete: 'cascade' }),
    /** The event's type (notification_events.type), kept here for the digest's per-kind look-ups. */
    type: text('type').notNull(),
    /** pending | delivered | failed */
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).defaultNow(),
    responseCode: integer('response_code'),
    error: text('error'),
    /** Sent as part of a digest mail instead of a mail of its own. */
    inDigest: boolean('in_digest').notNull().default(false),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
    /** When it was queued: written, or re-sent (the log lists the newest first). */
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('notification_deliveries_due_idx').on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    index('notification_deliveries_log_idx').on(t.notificationId, t.createdAt.desc()),
    index('notification_deliveries_event_idx').on(t.eventId),
    // The email digest's look-ups (digestStates), each by setting and event type: what arrived
    // within the window (walked newest first, stopping at the cap), what is waiting and the last
    // digest, without reading the setting's other kinds or its delivered history.
    index('notification_deliveries_kind_idx').on(t.notificationId, t.type, t.createdAt.desc()),
    index('notification_deliveries_waiting_idx')
      .on(t.notificationId, t.type, t.createdAt)
      .where(sql`${t.status} = 'pending'`),
    index('notification_deliveries_digest_idx')
      .on(t.notificationId, t.type, t.lastAttemptAt.desc())
      .where(sql`${t.inDigest} and ${t.status} = 'delivered'`),
  ],
);

/**
 * An email setting's kind of event collecting for its digest, and until when (the worker's
 * 'wait' decision, send-email.ts). Deliveries of that kind written meanwhile are due then, not
 * now: a flood's mails are claimed once, for the digest, instead of each claimed and put back.
 */
export const notificationDigests = pgTable(
  'notification_digests',
  {
    notificationId: bigint('notification_id', { mode: 'number' })
      .notNull()
      .references(() => notifications.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    collectingUntil: timestamp('collecting_until', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ name: 'notification_digests_pkey', columns: [t.notificationId, t.type] })],
);
