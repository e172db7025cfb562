// Notification settings per connector account (SPEC §3 Notification), scoped to their user.
import { and, asc, eq } from 'drizzle-orm';
import { connectors, notifications } from '../schema/index.ts';
import type { Executor } from './executor.ts';

export type NotificationMetadata = { email?: string; url?: string };

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
    })
    .from(notifications)
    .innerJoin(connectors, eq(connectors.id, notifications.connectorId));
}
export type NotificationView = Awaited<ReturnType<typeof selectNotifications>>[number];

/** Inserts, or updates the metadata of the account's notification of that type; its key. */
export async function upsertNotification(db: Executor, values: typeof notifications.$inferInsert): Promise<string> {
  const [row] = await db
    .insert(notifications)
    .values(values)
    .onConflictDoUpdate({
      target: [notifications.connectorId, notifications.accountId, notifications.type],
      set: { metadata: values.metadata, isEnabled: true },
    })
    .returning({ key: notifications.key });
  if (!row) throw new Error('notification insert returned nothing');
  return row.key;
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

export async function updateNotificationMetadata(
  db: Executor,
  id: number,
  metadata: NotificationMetadata,
): Promise<void> {
  await db.update(notifications).set({ metadata }).where(eq(notifications.id, id));
}

export async function deleteNotificationRow(db: Executor, id: number): Promise<void> {
  await db.delete(notifications).where(eq(notifications.id, id));
}
