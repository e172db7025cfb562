// What the hook endpoint (apps/server/src/hook) uses: the hook and its connector by short key,
// and the hook_changed channel its in-process cache LISTENs on.

import type { Executor } from '../../db/repositories/executor.ts';
import {
  HOOK_CHANGED_CHANNEL,
  type HookForSignal,
  notifyHookChanged as notify,
  selectHookForSignal,
} from '../../db/repositories/hooks.repository.ts';
import type { Services } from '../../services.ts';

export { HOOK_CHANGED_CHANNEL, type HookForSignal };

/**
 * The hook with the connector fields a signal needs (one query on the unique short_key index);
 * undefined for an unknown key. `connector` fits withBrokerSession as is.
 */
export async function findHookForSignal(services: Services, shortKey: string): Promise<HookForSignal | undefined> {
  if (!/^[0-9A-Za-z]{22}$/.test(shortKey)) return undefined;
  return selectHookForSignal(services.db, shortKey);
}

/** NOTIFY hook_changed with each short key (sent on commit when `db` is a transaction). */
export function notifyHookChanged(db: Executor, shortKeys: readonly string[]): Promise<void> {
  return notify(db, shortKeys);
}
