// Notification settings per connector account (SPEC §3 Notification), scoped to their user.
import { NOTIFICATION_EVENTS } from '@router/shared';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { connectors, notifications } from '../schema/index.ts';
import type { Executor } from './executor.ts';

export type NotificationMetadata = { email?: string; url?: string; events?: string[] };

function selectNotifications(db: Executor) {
  return db
    .select({
      id: notifications.id,
      key: notifications.key,
      type: notifications.type,
      isEnabled: notifications.isEnabled,
      metadata: notifications.metadata,
      accountId: notifications.accountId,
      connectorId: notifications.connectorId,
      connectorKey: connectors.key,
      disabledReason: notifications.disabledReason,
    })
    .from(notifications)
    .innerJoin(connectors, eq(connectors.id, notifications.connectorId));
}
export type NotificationView = Awaited<ReturnType<typeof selectNotifications>>[number];

export interface SealedSecret {
  data: Buffer;
  keyId: string;
}

/**
 * Inserts, or updates the metadata of the account's notification of that type (enabling it
 * again). `secret` is kept when the row has one; the answer says whether `secret` was stored.
 */
export async function upsertNotification(
  db: Executor,
  values: typeof notifications.$inferInsert,
  secret: SealedSecret | null,
): Promise<{ id: number; key: string; secretStored: boolean }> {
  const [row] = await db
    .insert(notifications)
    .values({ ...values, secret: secret?.data ?? null, secretKeyId: secret?.keyId ?? null })
    .onConflictDoUpdate({
      target: [notifications.connectorId, notifications.accountId, notifications.type],
      set: {
        metadata: values.metadata,
        isEnabled: true,
        failingSince: null,
        disabledAt: null,
        disabledReason: null,
        disabledNoticeAt: null,
        secret: sql`coalesce(${notifications.secret}, excluded.secret)`,
        secretKeyId: sql`coalesce(${notifications.secretKeyId}, excluded.secret_key_id)`,
      },
    })
    .returning({ id: notifications.id, key: notifications.key, secret: notifications.secret });
  if (!row) throw new Error('notification insert returned nothing');
  return { id: row.id, key: row.key, secretStored: Boolean(secret && row.secret?.equals(secret.data)) };
}

export async function findNotification(
  db: Executor,
  userId: number,
  key: string,
): Promise<NotificationView | undefined> {
  const [row] = await selectNotifications(db)
    .where(and(eq(notifications.userId, userId), eq(notifications.key, key)))
    .limit(1);
  return row;
}

export async function listNotifications(
  db: Executor,
  userId: number,
  connectorId: number,
  accountId: string | null,
): Promise<NotificationView[]> {
  const scope = [eq(notifications.userId, userId), eq(notifications.connectorId, connectorId)];
  if (accountId !== null) scope.push(eq(notifications.accountId, accountId));
  return selectNotifications(db)
    .where(and(...scope))
    .orderBy(asc(notifications.accountId), asc(notifications.type), asc(notifications.id));
}

/** New metadata, and the setting enabled again (saving is how a disabled setting is revived). */
export async function updateNotificationMetadata(
  db: Executor,
  id: number,
  metadata: NotificationMetadata,
): Promise<void> {
  await db
    .update(notifications)
    .set({
      metadata,
      isEnabled: true,
      failingSince: null,
      disabledAt: null,
      disabledReason: null,
      disabledNoticeAt: null,
    })
    .where(eq(notifications.id, id));
}

/** The error of a delivery given up because its setting no longer asks for its event. */
export const NO_LONGER_WANTED = 'Not sent: the setting no longer asks for this event';

/**
 * Whether a setting (`n`, a notifications row) still asks for a delivery's event type (`type`):
 * its `events` absent or holding it, or not an event the list chooses (a test notification).
 */
export const settingWantsSql = (n: string, type: string) =>
  `(${n}.metadata->'events' is null or ${n}.metadata->'events' ? ${type}
    or ${type} not in (select json_array_elements_text('${JSON.stringify(NOTIFICATION_EVENTS)}'::json)))`;

/**
 * Gives up (failed, NO_LONGER_WANTED) the setting's waiting deliveries of events that `events`
 * (its new list; undefined: every event) leaves out, a retry or a digest's share included: a
 * setting that stopped asking for an event is not sent one afterwards. A test notification is
 * not an event the list chooses, and stays. A delivery a worker is sending at this moment is
 * passed by (the save does not wait for a round, minutes against a dead receiver): failed, its
 * result gives it up then instead of a retry (recordDeliveryResults).
 */
export async function dropUnwantedDeliveries(
  db: Executor,
  notificationId: number,
  events: readonly string[] | undefined,
): Promise<void> {
  if (!events) return;
  await db.execute(sql`
    update notification_deliveries d set status = 'failed', next_attempt_at = null, error = ${NO_LONGER_WANTED}
    where d.id in (
      select w.id from notification_deliveries w
      where w.notification_id = ${notificationId} and w.status = 'pending'
        and w.type in (select json_array_elements_text(${JSON.stringify(NOTIFICATION_EVENTS)}::json))
        and w.type not in (select json_array_elements_text(${JSON.stringify(events)}::json))
      for update skip locked)`);
}

export async function deleteNotificationRow(db: Executor, id: number): Promise<void> {
  await db.delete(notifications).where(eq(notifications.id, id));
}

/** Replaces a webhook setting's sealed secrets (a rotation keeps the previous one inside). */
export async function storeNotificationSecret(db: Executor, id: number, secret: SealedSecret): Promise<void> {
  await db
    .update(notifications)
    .set({ secret: secret.data, secretKeyId: secret.keyId, secretRotatedAt: sql`now()` })
    .where(eq(notifications.id, id));
}

/**
 * A setting's sealed secrets, the row locked until the caller's transaction ends: a rotation
 * running meanwhile waits and then keeps this one's new secret as the previous one, instead of
 * both building on the same old secret and one answered secret being lost.
 */
export async function findNotificationSecret(db: Executor, id: number) {
  const [row] = await db
    .select({ secret: notifications.secret, keyId: notifications.secretKeyId })
    .from(notifications)
    .where(eq(notifications.id, id))
    .limit(1)
    .for('update');
  return row?.secret && row.keyId ? { data: row.secret, keyId: row.keyId } : null;
}

/**
 * The settings of these accounts on connector `fromId` that connector `toId` has none of the same
 * type for (a reconnect taking the accounts over), locked until the transaction ends.
 */
export async function listMovableNotifications(
  db: Executor,
  fromId: number,
  toId: number,
  accountIds: readonly string[],
) {
  if (accountIds.length === 0) return [];
  return db
    .select({
      id: notifications.id,
      accountId: notifications.accountId,
      type: notifications.type,
      secret: notifications.secret,
      secretKeyId: notifications.secretKeyId,
    })
    .from(notifications)
    .where(
      and(
        eq(notifications.connectorId, fromId),
        inArray(notifications.accountId, [...accountIds]),
        sql`not exists (select 1 from notifications n where n.connector_id = ${toId}
          and n.account_id = notifications.account_id and n.type = notifications.type)`,
      ),
    )
    .for('update');
}

/** Moves a setting to another connector, with its secret sealed for its new identity. */
export async function moveNotification(
  db: Executor,
  id: number,
  connectorId: number,
  secret: SealedSecret | null,
): Promise<void> {
  await db
    .update(notifications)
    .set({ connectorId, ...(secret ? { secret: secret.data, secretKeyId: secret.keyId } : {}) })
    .where(eq(notifications.id, id));
}
