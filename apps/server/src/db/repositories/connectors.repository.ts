// Broker connections (SPEC §3 Connector). Every lookup by key is scoped to its user; a pending
// OAuth connection (oauth_state set) is invisible until activated.
import { and, asc, eq, inArray, isNotNull, isNull, lt, notInArray, or, sql } from 'drizzle-orm';
import { connectors } from '../schema/index.ts';
import type { Executor, Transaction } from './executor.ts';

export type ConnectorRow = typeof connectors.$inferSelect;
export type NewConnector = typeof connectors.$inferInsert;
export type ConnectorChanges = Partial<Omit<NewConnector, 'id' | 'key' | 'userId' | 'createdAt' | 'updatedAt'>>;

const visible = isNull(connectors.oauthState);

/** The brokers that active connections use, each once (what a start loads ahead of the first signal). */
export async function listActiveProviderNames(db: Executor): Promise<string[]> {
  const rows = await db
    .selectDistinct({ providerName: connectors.providerName })
    .from(connectors)
    .where(and(eq(connectors.isActive, true), visible));
  return rows.map((row) => row.providerName);
}

export async function insertConnector(db: Executor, values: NewConnector): Promise<ConnectorRow> {
  const [row] = await db.insert(connectors).values(values).returning();
  if (!row) throw new Error('connector insert returned nothing');
  return row;
}

export async function findConnector(db: Executor, userId: number, key: string): Promise<ConnectorRow | undefined> {
  const [row] = await db
    .select()
    .from(connectors)
    .where(and(eq(connectors.userId, userId), eq(connectors.key, key), visible))
    .limit(1);
  return row;
}

export async function listConnectors(db: Executor, userId: number): Promise<ConnectorRow[]> {
  return db
    .select()
    .from(connectors)
    .where(and(eq(connectors.userId, userId), visible))
    .orderBy(asc(connectors.createdAt), asc(connectors.id));
}

/** The user's activated connections to one provider (a reconnect updates the matching one). */
export async function listProviderConnectors(db: Executor, userId: number, providerName: string) {
  return db
    .select()
    .from(connectors)
    .where(and(eq(connectors.userId, userId), eq(connectors.providerName, providerName), visible))
    .orderBy(asc(connectors.id));
}

/**
 * Serializes a user's activations of one provider until the transaction ends: two at once (a
 * second tab, a retried request) would each find no connection of the accounts and make two.
 */
export async function lockProviderActivation(tx: Transaction, userId: number, providerName: string): Promise<void> {
  await tx.execute(
    sql`select pg_advisory_xact_lock(hashtext('connectors:activate:' || ${userId}::text || ':' || ${providerName}))`,
  );
}

/** The user's pending OAuth connections to a provider created after `since`, newest first. */
export async function listPendingConnectors(db: Executor, userId: number, providerName: string, since: Date) {
  return db
    .select()
    .from(connectors)
    .where(
      and(
        eq(connectors.userId, userId),
        eq(connectors.providerName, providerName),
        isNotNull(connectors.oauthState),
        sql`${connectors.createdAt} > ${since.toISOString()}`,
      ),
    )
    .orderBy(sql`${connectors.createdAt} desc`, sql`${connectors.id} desc`);
}

/**
 * Stores a pending OAuth connection unless the user already has `max` started after `since`
 * (then `{ oldestAt }`: when the oldest of them started). Counted under a lock per user, so
 * attempts sent at once cannot all pass.
 */
export async function insertPendingConnector(
  db: Executor,
  values: NewConnector & { userId: number },
  since: Date,
  max: number,
): Promise<ConnectorRow | { oldestAt: Date }> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('connectors:pending:' || ${values.userId}::text))`);
    const [row] = await tx
      .select({
        count: sql<number>`count(*)::int`,
        oldestMs: sql<number>`(extract(epoch from min(${connectors.createdAt})) * 1000)::float8`,
      })
      .from(connectors)
      .where(
        and(
          eq(connectors.userId, values.userId),
          isNotNull(connectors.oauthState),
          sql`${connectors.createdAt} > ${since.toISOString()}`,
        ),
      );
    if (row && row.count >= max) return { oldestAt: new Date(Number(row.oldestMs)) };
    return insertConnector(tx, values);
  });
}

/** Forgets the user's pending OAuth connections started before `before`. */
export async function deleteStalePendingConnectors(db: Executor, userId: number, before: Date): Promise<void> {
  await db
    .delete(connectors)
    .where(and(eq(connectors.userId, userId), isNotNull(connectors.oauthState), lt(connectors.createdAt, before)));
}

/** Forgets every user's pending OAuth connections started before `before` (abandoned sign-ins). */
export async function deleteExpiredPendingConnectors(db: Executor, before: Date): Promise<number> {
  const rows = await db
    .delete(connectors)
    .where(and(isNotNull(connectors.oauthState), lt(connectors.createdAt, before)))
    .returning({ id: connectors.id });
  return rows.length;
}

/** Applies `changes` and bumps updated_at (which invalidates cached sessions). */
export async function updateConnector(
  db: Executor,
  id: number,
  changes: ConnectorChanges,
): Promise<ConnectorRow | undefined> {
  const [row] = await db
    .update(connectors)
    .set({ ...changes, updatedAt: sql`clock_timestamp()` })
    .where(eq(connectors.id, id))
    .returning();
  return row;
}

/**
 * Deactivates an active connector; undefined when it was not active (nothing to do), or when it
 * was updated after `version` (ms of the updated_at whose credentials were refused: a reconnect
 * since then holds other credentials).
 */
export async function deactivateConnectorRow(db: Executor, id: number, reason: string, version?: number) {
  const [row] = await db
    .update(connectors)
    .set({ isActive: false, deactivatedReason: reason, updatedAt: sql`clock_timestamp()` })
    .where(
      and(
        eq(connectors.id, id),
        eq(connectors.isActive, true),
        // updated_at has microseconds; `version` only milliseconds.
        version === undefined ? undefined : lt(connectors.updatedAt, new Date(version + 1)),
      ),
    )
    .returning();
  return row;
}

export async function deleteConnectorRow(db: Executor, id: number): Promise<void> {
  await db.delete(connectors).where(eq(connectors.id, id));
}

/** Whether a connector other than `exceptId` (any user's) of this provider holds one of these accounts. */
export async function accountsHeldElsewhere(
  db: Executor,
  providerName: string,
  exceptId: number,
  accountIds: readonly string[],
): Promise<boolean> {
  const { rows } = await db.execute(sql`
    select 1 from connectors c
    where c.provider_name = ${providerName} and c.id <> ${exceptId}
      and exists (select 1 from jsonb_array_elements(c.accounts) a
        where a->>'id' in (select jsonb_array_elements_text(${JSON.stringify(accountIds)}::jsonb)))
    limit 1`);
  return rows.length > 0;
}

/** The row as stored now, by id (a signal's connection; a session read again after its token was refused). */
export async function findConnectorById(db: Executor, id: number): Promise<ConnectorRow | undefined> {
  const [row] = await db.select().from(connectors).where(eq(connectors.id, id)).limit(1);
  return row;
}

/** The row locked for update (token refresh: one instance refreshes, the others wait and reuse). */
export async function lockConnector(tx: Transaction, id: number): Promise<ConnectorRow | undefined> {
  const [row] = await tx.select().from(connectors).where(eq(connectors.id, id)).for('update');
  return row;
}

/**
 * Active connections of these providers whose refresh time has passed, the most overdue first;
 * `except`: ids already tried in this pass (a refresh that failed keeps its refresh time). Not
 * those due only at or after their expiry: nothing is left to renew then (E*TRADE's session,
 * active until midnight Eastern, is due then). Refreshed, each would be refused and deactivated,
 * its user mailed every night of an end the connector shows as 'expired'. A signal still tries.
 */
export async function listConnectorsDueForRefresh(
  db: Executor,
  providerNames: readonly string[],
  now: Date,
  limit: number,
  except: readonly number[] = [],
): Promise<ConnectorRow[]> {
  if (providerNames.length === 0) return [];
  return db
    .select()
    .from(connectors)
    .where(
      and(
        eq(connectors.isActive, true),
        visible,
        lt(connectors.refreshAt, now),
        or(isNull(connectors.expiresAt), lt(connectors.refreshAt, connectors.expiresAt)),
        inArray(connectors.providerName, [...providerNames]),
        except.length > 0 ? notInArray(connectors.id, [...except]) : undefined,
      ),
    )
    .orderBy(asc(connectors.refreshAt))
    .limit(limit);
}
