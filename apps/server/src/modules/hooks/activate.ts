// hookActivate: the owner turns a deactivated hook back on (after too many invalid requests, or
// after its account was disconnected and is connected again). Every instance drops its cached
// copy (hook_changed), and the invalid-request count starts afresh.
import { recordAction } from '../../db/repositories/action.repository.ts';
import { activateHookRow, type HookView, notifyHookChanged } from '../../db/repositories/hooks.repository.ts';
import { AppError } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { holdsAccount } from '../connectors/holds-account.ts';
import { type Actor, requireConnector } from '../connectors/index.ts';
import { hooksChangedHere } from './hook-cache.ts';
import { actionMetadata, requireHook } from './manage.ts';

export const HOOK_ACCOUNT_GONE =
  "This webhook's account is no longer connected: reconnect the broker with that account first";

/** Another user's key is NOT_FOUND; an active hook is returned as it is. */
export async function activateHook(services: Services, actor: Actor, key: string): Promise<HookView> {
  const hook = await requireHook(services, actor.userId, key);
  if (hook.isActive) return hook;
  const connector = await requireConnector(services, actor.userId, hook.connectorKey);
  if (!holdsAccount(connector, hook.accountId)) {
    throw new AppError('VALIDATION', HOOK_ACCOUNT_GONE, { field: 'key' });
  }
  const activated = await services.db.transaction(async (tx) => {
    if (!(await activateHookRow(tx, hook.id))) return false;
    await notifyHookChanged(tx, [hook.shortKey]);
    // A code of ours beside SPEC's (as HookDeactivate), worded by describeAction.
    await recordAction(tx, {
      userId: actor.userId,
      code: 'HookActivate',
      address: actor.address,
      metadata: { ...actionMetadata(hook), reason: hook.deactivatedReason },
    });
    return true;
  });
  if (activated) hooksChangedHere(services, [hook.shortKey]);
  return { ...hook, isActive: true, deactivatedReason: null };
}
