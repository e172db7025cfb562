// Webhooks (SPEC §3 Hook), scoped to their user; the hook endpoint's lookup by short key; and
// the NOTIFY that tells every server instance to drop a cached hook.
import { and, asc, eq, inArray, isNotNull, isNull, or, sql } from 'drizzle-orm';
import { connectors, hookPauses, hooks } from '../schema/index.ts';
import type { Executor } from './executor.ts';

export type HookRow = typeof hooks.$inferSelect;

/** PostgreSQL channel; the payload is one hook's short key. */
export const HOOK_CHANGED_CHANNEL = 'hook_changed';

const hookView = {
  id: hooks.id,
  userId: hooks.userId,
  key: hooks.key,
  shortKey: hooks.shortKey,
  name: hooks.name,
  accountId: hooks.accountId,
  isActive: hooks.isActive,
  isTest: hooks.isTest,
  deactivatedReason: hooks.deactivatedReason,
  calledAt: hooks.calledAt,
  rules: hooks.rules,
  pausedReason: hooks.pausedReason,
  connectorId: hooks.connectorId,
  connectorKey: connectors.key,
  providerName: connectors.providerName,
};
function selectHooks(db: Executor) {
  return db.select(hookView).from(hooks).innerJoin(connectors, eq(connectors.id, hooks.connectorId));
}
export type HookView = Awaited<ReturnType<typeof selectHooks>>[number];

export async function insertHook(db: Executor, values: typeof hooks.$inferInsert): Promise<HookRow> {
  const [row] = await db.insert(hooks).values(values).returning();
  if (!row) throw new Error('hook insert returned nothing');
  return row;
}

export async function findHook(db: Executor, userId: number, key: string): Promise<HookView | undefined> {
  const [row] = await selectHooks(db)
    .where(and(eq(hooks.userId, userId), eq(hooks.key, key), eq(hooks.isApi, false)))
    .limit(1);
  return row;
}

export async function listHooks(db: Executor, userId: number, connectorId: number): Promise<HookView[]> {
  return selectHooks(db)
    .where(and(eq(hooks.userId, userId), eq(hooks.connectorId, connectorId), eq(hooks.isApi, false)))
    .orderBy(asc(hooks.createdAt), asc(hooks.id));
}

export async function renameHook(db: Executor, id: number, name: string): Promise<void> {
  await db.update(hooks).set({ name }).where(eq(hooks.id, id));
}

/** Active again, with a fresh invalid-request window; false when it already was active. */
export async function activateHookRow(db: Executor, id: number): Promise<boolean> {
  const rows = await db
    .update(hooks)
    .set({ isActive: true, deactivatedReason: null, invalidCount: 0, invalidWindowStart: null })
    .where(and(eq(hooks.id, id), eq(hooks.isActive, false)))
    .returning({ id: hooks.id });
  return rows.length > 0;
}

/** Name and/or risk-control settings (null: none). */
export async function updateHookRow(
  db: Executor,
  id: number,
  values: { name?: string; rules?: Record<string, unknown> | null },
): Promise<void> {
  await db.update(hooks).set(values).where(eq(hooks.id, id));
}

/**
 * Serializes the kill switch with the making of webhooks, so none is made unpaused past a pause
 * being switched on: an administrator's switch of everyone (userId null) excludes every other;
 * a user's switch and the making of a user's webhook exclude each other for that user.
 */
async function lockHookPauses(db: Executor, userId: number | null): Promise<void> {
  await db.execute(
    userId === null
      ? sql`select pg_advisory_xact_lock(hashtext('hooks:pause'))`
      : sql`select pg_advisory_xact_lock_shared(hashtext('hooks:pause')),
          pg_advisory_xact_lock(hashtext('hooks:pause:' || ${userId}::text))`,
  );
}

type HookPause = { pausedReason: string; pausedByAdmin: boolean };

/** The pause in force for a user's webhooks: their own, else an administrator's of everyone. */
async function selectHookPause(db: Executor, userId: number | null): Promise<HookPause | undefined> {
  const [row] = await db
    .select({ userId: hookPauses.userId, reason: hookPauses.reason })
    .from(hookPauses)
    .where(userId === null ? isNull(hookPauses.userId) : or(eq(hookPauses.userId, userId), isNull(hookPauses.userId)))
    .orderBy(sql`${hookPauses.userId} nulls last`)
    .limit(1);
  return row && { pausedReason: row.reason, pausedByAdmin: row.userId === null };
}

/**
 * Inside the transaction that makes a user's webhook: the pause it is born with (the kill switch
 * in force for the user, see hook_pauses), or none. Holds the lock against a switch until commit.
 */
export async function hookPauseForNewHook(db: Executor, userId: number): Promise<HookPause | undefined> {
  await lockHookPauses(db, userId);
  return selectHookPause(db, userId);
}

/**
 * The kill switch: pauses (reason) or resumes (null) the hooks of one user, or of everyone
 * (userId null, admins), and records the pause in force (hook_pauses) for webhooks made until the
 * resume. Each pause is lifted only by its own kind of resume: an administrator's resume of
 * everyone leaves what a user paused, and a user's resume leaves what an administrator paused for
 * everyone (a user's own pause takes over such hooks, and their resume hands them back to it).
 * A second pause of the same kind keeps the first one's reason. Run inside a transaction; returns
 * the short keys changed, for hook_changed, and how many of them are webhooks (the REST API's own
 * hooks, never listed, are switched with them but not counted as webhooks).
 */
export async function setHooksPaused(
  db: Executor,
  userId: number | null,
  reason: string | null,
): Promise<{ shortKeys: string[]; webhooks: number }> {
  const byAdmin = userId === null;
  await lockHookPauses(db, userId);
  const scope = userId === null ? isNull(hookPauses.userId) : eq(hookPauses.userId, userId);
  if (reason === null) await db.delete(hookPauses).where(scope);
  else await db.insert(hookPauses).values({ userId, reason }).onConflictDoNothing();
  // A user's resume while an administrator's pause of everyone is in force: back under that pause.
  const fallback = reason === null && !byAdmin ? await selectHookPause(db, null) : undefined;
  const changing =
    reason === null
      ? and(isNotNull(hooks.pausedReason), eq(hooks.pausedByAdmin, byAdmin))
      : byAdmin
        ? isNull(hooks.pausedReason)
        : or(isNull(hooks.pausedReason), eq(hooks.pausedByAdmin, true));
  const rows = await db
    .update(hooks)
    .set(fallback ?? { pausedReason: reason, pausedByAdmin: reason !== null && byAdmin })
    .where(userId === null ? changing : and(eq(hooks.userId, userId), changing))
    .returning({ shortKey: hooks.shortKey, isApi: hooks.isApi });
  return { shortKeys: rows.map((row) => row.shortKey), webhooks: rows.filter((row) => !row.isApi).length };
}

export async function deleteHookRow(db: Executor, id: number): Promise<void> {
  await db.delete(hooks).where(eq(hooks.id, id));
}

/** The hooks placing orders through a connector: its own, and those fanning out to it (rules.fanOut). */
export async function listHookShortKeys(db: Executor, connectorId: number): Promise<string[]> {
  const fansOut = sql`${hooks.rules} -> 'fanOut' @> jsonb_build_array(jsonb_build_object('connectorKey',
    (select ${connectors.key} from ${connectors} where ${connectors.id} = ${connectorId})))`;
  const rows = await db
    .select({ shortKey: hooks.shortKey })
    .from(hooks)
    .where(or(eq(hooks.connectorId, connectorId), and(isNotNull(hooks.rules), fansOut)));
  return rows.map((row) => row.shortKey);
}

/**
 * Moves the hooks of these accounts from one of the user's connectors to another (a reconnect
 * bringing the accounts under the other's credentials), and points the fan-out legs naming them
 * there too. An API hook stays where the target has its own for the account.
 */
export async function moveAccountHooks(
  db: Executor,
  userId: number,
  from: { id: number; key: string },
  to: { id: number; key: string },
  accountIds: readonly string[],
): Promise<void> {
  if (accountIds.length === 0) return;
  const ids = JSON.stringify(accountIds);
  await db
    .update(hooks)
    .set({ connectorId: to.id })
    .where(
      and(
        eq(hooks.connectorId, from.id),
        inArray(hooks.accountId, [...accountIds]),
        or(
          eq(hooks.isApi, false),
          sql`not exists (select 1 from hooks h where h.connector_id = ${to.id}
            and h.account_id = hooks.account_id and h.is_api)`,
        ),
      ),
    );
  await db.execute(sql`
    update hooks set rules = jsonb_set(rules, '{fanOut}', (
      select jsonb_agg(case
        when leg->>'connectorKey' = ${from.key}
          and leg->>'accountId' in (select jsonb_array_elements_text(${ids}::jsonb))
        then jsonb_set(leg, '{connectorKey}', to_jsonb(${to.key}::text))
        else leg end order by n)
      from jsonb_array_elements(rules->'fanOut') with ordinality as l(leg, n)))
    where user_id = ${userId}
      and rules->'fanOut' @> jsonb_build_array(jsonb_build_object('connectorKey', ${from.key}::text))`);
}

/** What the hook endpoint needs to place an order: the hook and its connector, one indexed query. */
const signalView = {
  hookId: hooks.id,
  hookKey: hooks.key,
  shortKey: hooks.shortKey,
  name: hooks.name,
  userId: hooks.userId,
  accountId: hooks.accountId,
  isActive: hooks.isActive,
  isTest: hooks.isTest,
  deactivatedReason: hooks.deactivatedReason,
  rules: hooks.rules,
  pausedReason: hooks.pausedReason,
  connector: {
    id: connectors.id,
    key: connectors.key,
    userId: connectors.userId,
    providerName: connectors.providerName,
    isActive: connectors.isActive,
    isDemo: connectors.isDemo,
    accounts: connectors.accounts,
    secrets: connectors.secrets,
    secretsKeyId: connectors.secretsKeyId,
    expiresAt: connectors.expiresAt,
    refreshAt: connectors.refreshAt,
    updatedAt: connectors.updatedAt,
    deactivatedReason: connectors.deactivatedReason,
  },
};

export type HookForSignal = NonNullable<Awaited<ReturnType<typeof selectHookForSignal>>>;

export async function selectHookForSignal(db: Executor, shortKey: string) {
  const [row] = await db
    .select(signalView)
    .from(hooks)
    .innerJoin(connectors, eq(connectors.id, hooks.connectorId))
    .where(eq(hooks.shortKey, shortKey))
    .limit(1);
  return row;
}

/** A user's connectors by key, as a signal needs them (fan-out legs of a hook, loaded with it). */
export async function selectConnectorsForSignal(db: Executor, userId: number, keys: readonly string[]) {
  return db
    .select(signalView.connector)
    .from(connectors)
    .where(and(eq(connectors.userId, userId), inArray(connectors.key, [...keys])));
}

/** The REST API's hook of one account (schema `hooks.isApi`), as the signal path needs it. */
export async function selectApiHookForSignal(db: Executor, connectorId: number, accountId: string) {
  const [row] = await db
    .select(signalView)
    .from(hooks)
    .innerJoin(connectors, eq(connectors.id, hooks.connectorId))
    .where(and(eq(hooks.connectorId, connectorId), eq(hooks.accountId, accountId), eq(hooks.isApi, true)))
    .limit(1);
  return row;
}

/**
 * Makes the account's API hook unless it exists (two first orders at once make one), paused when
 * the user's webhooks are (hookPauseForNewHook).
 */
export async function insertApiHook(db: Executor, values: typeof hooks.$inferInsert): Promise<void> {
  await db.transaction(async (tx) => {
    const pause = await hookPauseForNewHook(tx, values.userId);
    await tx
      .insert(hooks)
      .values({ ...values, ...pause, isApi: true })
      .onConflictDoNothing({ target: [hooks.connectorId, hooks.accountId], where: sql`${hooks.isApi}` });
  });
}

/**
 * NOTIFY hook_changed once per short key; inside a transaction it is sent on commit. Returns the
 * keys, for the caller to drop from its own instance's cache once committed (hooksChangedHere).
 */
export async function notifyHookChanged(db: Executor, shortKeys: readonly string[]): Promise<readonly string[]> {
  if (shortKeys.length === 0) return shortKeys;
  await db.execute(
    sql`select pg_notify(${HOOK_CHANGED_CHANNEL}, k) from unnest(${sql.param([...shortKeys])}::text[]) as k`,
  );
  return shortKeys;
}
