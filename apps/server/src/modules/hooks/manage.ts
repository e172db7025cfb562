// hookCreate, hookUpdate (name, risk-control settings), hookDelete, hook, hooks(connectorKey), scoped to the caller.
import { hookCreateSchema, hookNameSchema } from '@router/shared';
import { newKey, newShortKey } from '../../crypto/random.ts';
import { recordAction } from '../../db/repositories/action.repository.ts';
import { findConnector } from '../../db/repositories/connectors.repository.ts';
import { isUniqueViolation } from '../../db/repositories/executor.ts';
import {
  deleteHookRow,
  findHook,
  type HookView,
  hookPauseForNewHook,
  insertHook,
  listHooks as listHookRows,
  notifyHookChanged,
  updateHookRow,
} from '../../db/repositories/hooks.repository.ts';
import { rescheduleQueuedSignals } from '../../db/repositories/queued-signals.repository.ts';
import { AppError } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { holdsAccount } from '../connectors/holds-account.ts';
import { type Actor, requireConnector } from '../connectors/index.ts';
import { cancelQueuedOfDeletedHooks } from '../signals/queued.ts';
import { hooksChangedHere } from './hook-cache.ts';
import { checkWindow, lotsAt, lotsRefusal } from './rules/check.ts';
import { compileRules } from './rules/compile.ts';
import { nextOpening } from './rules/next-opening.ts';
import { type HookRules, parseHookRules } from './rules/settings.ts';

export const HOOK_NOT_FOUND = 'Hook not found';
const DEFAULT_NAME = 'Webhook';

export interface HookInput {
  connectorKey: string;
  /** Omitted: the connection's account when it has only one (SPEC §5: hook creation needs connectorKey). */
  accountId?: string | null;
  name?: string | null;
  isTest?: boolean | null;
}

function validation(issues: readonly { message: string; path: readonly PropertyKey[] }[]): AppError {
  const issue = issues[0];
  return new AppError('VALIDATION', issue?.message ?? 'Invalid input', { field: issue?.path.join('.') });
}

export async function requireHook(services: Services, userId: number, key: string): Promise<HookView> {
  const hook = key ? await findHook(services.db, userId, key) : undefined;
  if (!hook) throw new AppError('NOT_FOUND', HOOK_NOT_FOUND, { field: 'key' });
  return hook;
}

export const actionMetadata = (
  hook: Pick<HookView, 'shortKey' | 'name' | 'providerName' | 'accountId' | 'connectorKey'>,
) => ({
  shortKey: hook.shortKey,
  name: hook.name,
  providerName: hook.providerName,
  accountId: hook.accountId,
  connector: { key: hook.connectorKey, providerName: hook.providerName },
});

/** The id of the connection's one account; undefined when it has several (which one is the caller's to say). */
async function onlyAccount(services: Services, actor: Actor, connectorKey: string): Promise<string | undefined> {
  const connector = connectorKey ? await findConnector(services.db, actor.userId, connectorKey) : undefined;
  return connector?.accounts.length === 1 ? connector.accounts[0]?.id : undefined;
}

export async function createHook(services: Services, actor: Actor, input: HookInput): Promise<HookView> {
  const accountId = input.accountId ?? (await onlyAccount(services, actor, input.connectorKey));
  const parsed = hookCreateSchema.safeParse({
    ...input,
    accountId,
    name: input.name ?? undefined,
    isTest: input.isTest ?? false,
  });
  if (!parsed.success) throw validation(parsed.error.issues);
  const { connectorKey, isTest } = parsed.data;
  const connector = await requireConnector(services, actor.userId, connectorKey);
  if (!holdsAccount(connector, parsed.data.accountId)) {
    throw new AppError('VALIDATION', 'Account not found on this connector', { field: 'accountId' });
  }
  const name = parsed.data.name || DEFAULT_NAME;
  for (let attempt = 0; ; attempt++) {
    const values = {
      key: newKey(),
      shortKey: newShortKey(),
      userId: actor.userId,
      connectorId: connector.id,
      accountId: parsed.data.accountId,
      name,
      isTest,
    };
    try {
      const row = await services.db.transaction(async (tx) => {
        // Made while the user's webhooks are paused (by them, or an administrator's pause of
        // everyone): born paused, with that pause's reason and kind.
        const pause = await hookPauseForNewHook(tx, actor.userId);
        const inserted = await insertHook(tx, { ...values, ...pause });
        await recordAction(tx, {
          userId: actor.userId,
          code: 'HookCreate',
          address: actor.address,
          metadata: actionMetadata({ ...inserted, providerName: connector.providerName, connectorKey: connector.key }),
        });
        return inserted;
      });
      return { ...row, connectorKey: connector.key, providerName: connector.providerName };
    } catch (error) {
      // 131 random bits collide never in practice; retrying keeps the theory honest.
      if (!isUniqueViolation(error) || attempt >= 2) throw error;
    }
  }
}

export interface HookUpdate {
  name?: string | null;
  /** JSON text of the whole settings object (docs/RISK-CONTROLS.md); replaces the stored one. */
  rules?: string | null;
}

/** Name and/or settings; invalid settings are refused whole and nothing is changed. */
export async function updateHook(services: Services, actor: Actor, key: string, input: HookUpdate): Promise<HookView> {
  const values: { name?: string; rules?: HookRules | null } = {};
  if (input.name !== undefined && input.name !== null) {
    const parsed = hookNameSchema.safeParse(input.name);
    if (!parsed.success) throw validation(parsed.error.issues.map((issue) => ({ ...issue, path: ['name'] })));
    values.name = parsed.data;
  }
  if (input.rules !== undefined && input.rules !== null) {
    const parsed = parseHookRules(input.rules);
    if (!parsed.ok) throw new AppError('VALIDATION', parsed.message, { field: 'rules' });
    values.rules = parsed.rules;
  }
  const hook = await requireHook(services, actor.userId, key);
  if (values.rules?.fanOut) await checkFanOut(services, actor, hook, values.rules.fanOut);
  if (values.rules?.maxPosition !== undefined) await checkPositionsReported(services, hook.providerName);
  if (values.rules?.maxNotional !== undefined) checkNotionalKnown(services, hook.providerName);
  if (values.rules?.dayTimeZone !== undefined) await checkDayZoneKnown(services, values.rules.dayTimeZone);
  if (Object.keys(values).length === 0) return hook;
  await services.db.transaction(async (tx) => {
    await updateHookRow(tx, hook.id, values);
    await notifyHookChanged(tx, [hook.shortKey]);
    if (values.rules !== undefined) {
      const releaseAt = queuedRelease(values.rules, new Date());
      if (releaseAt) await rescheduleQueuedSignals(tx, hook.id, releaseAt);
      await recordAction(tx, {
        userId: actor.userId,
        code: 'HookRules',
        address: actor.address,
        metadata: { ...actionMetadata(hook), rules: values.rules },
      });
    }
  });
  hooksChangedHere(services, [hook.shortKey]);
  return { ...hook, ...values };
}

/**
 * When a hook's queued signals (outsideWindow: "queue") are due under its new settings: now when a
 * window is open or none is left, else when its windows next open while it still queues; undefined
 * (kept) when it no longer does: the sweeper refuses each at its opening as it stands.
 */
function queuedRelease(rules: HookRules | null, now: Date): Date | undefined {
  const compiled = compileRules(rules);
  if (!compiled?.windows || !checkWindow(compiled, now)) return now;
  return compiled.settings.outsideWindow === 'queue' ? nextOpening(compiled, now) : undefined;
}

/** Each fan-out leg is an account of one of the caller's own connectors, other than the hook's. */
async function checkFanOut(services: Services, actor: Actor, hook: HookView, legs: NonNullable<HookRules['fanOut']>) {
  for (const [i, leg] of legs.entries()) {
    const connector = await requireConnector(services, actor.userId, leg.connectorKey).catch(() => undefined);
    const field = { field: 'rules' };
    if (!connector) throw new AppError('VALIDATION', `fanOut[${i}].connectorKey: connector not found`, field);
    if (!holdsAccount(connector, leg.accountId)) {
      throw new AppError('VALIDATION', `fanOut[${i}].accountId: account not found on this connector`, field);
    }
    if (connector.key === hook.connectorKey && leg.accountId === hook.accountId) {
      throw new AppError('VALIDATION', `fanOut[${i}]: the webhook's own account is always the first leg`, field);
    }
  }
}

/** maxPosition needs the broker's positions: refused when saved where the hook's broker reports none. */
async function checkPositionsReported(services: Services, providerName: string): Promise<void> {
  const broker = await services.brokers.load(providerName);
  if (broker?.getHoldings && broker.descriptor.has.getHoldings !== false) return;
  const title = broker?.descriptor.title ?? providerName;
  throw new AppError('VALIDATION', `maxPosition: ${title} does not report positions, so no position can be checked`, {
    field: 'rules',
  });
}

/** maxNotional cannot value lots (their size differs per symbol): refused when saved where quantities are lots. */
function checkNotionalKnown(services: Services, providerName: string): void {
  const title = lotsAt(services.brokers.descriptor(providerName));
  if (title !== undefined) throw new AppError('VALIDATION', lotsRefusal(title).message, { field: 'rules' });
}

/**
 * maxOrdersPerDay's day is dated by PostgreSQL in dayTimeZone: a zone the engine knows but this
 * database's time zone data does not (one newer than it, Europe/Kyiv before 2022) would fail the
 * count of every signal, so it is refused when saved instead.
 */
async function checkDayZoneKnown(services: Services, zone: string): Promise<void> {
  try {
    await services.db.$client.query('select now() at time zone $1', [zone]);
  } catch {
    throw new AppError('VALIDATION', `dayTimeZone: unknown time zone here: ${zone}`, { field: 'rules' });
  }
}

export async function deleteHook(services: Services, actor: Actor, key: string): Promise<boolean> {
  const hook = await requireHook(services, actor.userId, key);
  await services.db.transaction(async (tx) => {
    await cancelQueuedOfDeletedHooks(tx, actor, { hookId: hook.id });
    await deleteHookRow(tx, hook.id);
    await notifyHookChanged(tx, [hook.shortKey]);
    await recordAction(tx, {
      userId: actor.userId,
      code: 'HookDelete',
      address: actor.address,
      metadata: actionMetadata(hook),
    });
  });
  hooksChangedHere(services, [hook.shortKey]);
  return true;
}

export function getHook(services: Services, actor: Actor, key: string): Promise<HookView> {
  return requireHook(services, actor.userId, key);
}

export async function listHooks(services: Services, actor: Actor, connectorKey: string): Promise<HookView[]> {
  const connector = await requireConnector(services, actor.userId, connectorKey);
  return listHookRows(services.db, actor.userId, connector.id);
}

/** `{PUBLIC_URL}/hook/{shortKey}`. */
export function hookUrl(services: Services, shortKey: string): string {
  return `${services.config.PUBLIC_URL}/hook/${shortKey}`;
}
