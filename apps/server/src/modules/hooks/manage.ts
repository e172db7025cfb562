// hookCreate, hookUpdate (rename), hookDelete, hook, hooks(connectorKey), scoped to the caller.
import { hookCreateSchema, hookNameSchema } from '@router/shared';
import { newKey, newShortKey } from '../../crypto/random.ts';
import { recordAction } from '../../db/repositories/action.repository.ts';
import { isUniqueViolation } from '../../db/repositories/executor.ts';
import {
  deleteHookRow,
  findHook,
  type HookView,
  insertHook,
  listHooks as listHookRows,
  notifyHookChanged,
  renameHook as renameHookRow,
} from '../../db/repositories/hooks.repository.ts';
import { AppError } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { type Actor, requireConnector } from '../connectors/index.ts';

export const HOOK_NOT_FOUND = 'Hook not found';
const DEFAULT_NAME = 'Webhook';

export interface HookInput {
  connectorKey: string;
  accountId: string;
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

export async function createHook(services: Services, actor: Actor, input: HookInput): Promise<HookView> {
  const parsed = hookCreateSchema.safeParse({ ...input, name: input.name ?? undefined, isTest: input.isTest ?? false });
  if (!parsed.success) throw validation(parsed.error.issues);
  const { connectorKey, accountId, isTest } = parsed.data;
  const connector = await requireConnector(services, actor.userId, connectorKey);
  if (!connector.accounts.some((account) => account.id === accountId)) {
    throw new AppError('VALIDATION', 'Account not found on this connector', { field: 'accountId' });
  }
  const name = parsed.data.name || DEFAULT_NAME;
  for (let attempt = 0; ; attempt++) {
    const values = {
      key: newKey(),
      shortKey: newShortKey(),
      userId: actor.userId,
      connectorId: connector.id,
      accountId,
      name,
      isTest,
    };
    try {
      const row = await services.db.transaction(async (tx) => {
        const inserted = await insertHook(tx, values);
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

export async function renameHook(services: Services, actor: Actor, key: string, name: string): Promise<HookView> {
  const parsed = hookNameSchema.safeParse(name);
  if (!parsed.success) throw validation(parsed.error.issues.map((issue) => ({ ...issue, path: ['name'] })));
  const hook = await requireHook(services, actor.userId, key);
  await renameHookRow(services.db, hook.id, parsed.data);
  return { ...hook, name: parsed.data };
}

export async function deleteHook(services: Services, actor: Actor, key: string): Promise<boolean> {
  const hook = await requireHook(services, actor.userId, key);
  await services.db.transaction(async (tx) => {
    await deleteHookRow(tx, hook.id);
    await notifyHookChanged(tx, [hook.shortKey]);
    await recordAction(tx, {
      userId: actor.userId,
      code: 'HookDelete',
      address: actor.address,
      metadata: actionMetadata(hook),
    });
  });
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
