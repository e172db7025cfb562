// The kill switch (hooksPause / hooksResume): every webhook of the user, or of everyone for an
// admin, refuses signals with the reason until resumed. Each paused signal still gets its
// activity entry (the signal path refuses it as `paused`), so none is lost silently. An admin's
// switch of everyone is an admin action: it goes to the audit log too, in the same transaction,
// and to the log of each trader whose webhooks it switched.
import { AUDIT_ACTIONS } from '@router/shared';
import { recordAction, recordActionForHookOwners } from '../../db/repositories/action.repository.ts';
import { notifyHookChanged, setHooksPaused } from '../../db/repositories/hooks.repository.ts';
import { AppError } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { recordAudit } from '../admin/audit.ts';
import type { Actor } from '../connectors/index.ts';
import { hooksChangedHere } from './hook-cache.ts';

/** A switch of everyone's webhooks, by this administrator (checked by the caller). */
export interface Everyone {
  adminId: number;
}

const MAX_REASON = 256;

/**
 * Without `everyone`, the actor's own webhooks. Returns how many webhooks changed: the REST API's
 * own hooks (never listed) switch with them, uncounted.
 */
export async function pauseHooks(
  services: Services,
  actor: Actor,
  reason: string,
  everyone: Everyone | null = null,
): Promise<number> {
  const text = reason.trim();
  if (!text) throw new AppError('VALIDATION', 'Required', { field: 'reason' });
  if (text.length > MAX_REASON)
    throw new AppError('VALIDATION', `At most ${MAX_REASON} characters`, { field: 'reason' });
  return switchHooks(services, actor, text, everyone);
}

export function resumeHooks(services: Services, actor: Actor, everyone: Everyone | null = null): Promise<number> {
  return switchHooks(services, actor, null, everyone);
}

async function switchHooks(services: Services, actor: Actor, reason: string | null, everyone: Everyone | null) {
  let changed: readonly string[] = [];
  const webhooks = await services.db.transaction(async (tx) => {
    const { shortKeys, webhooks } = await setHooksPaused(tx, everyone ? null : actor.userId, reason);
    // Sent on commit: every instance drops these hooks from its cache.
    await notifyHookChanged(tx, shortKeys);
    changed = shortKeys;
    await recordAction(tx, {
      userId: actor.userId,
      code: reason === null ? 'HooksResume' : 'HooksPause',
      address: actor.address,
      metadata: { ...(reason === null ? {} : { reason }), everyone: everyone !== null, hooks: webhooks },
    });
    if (everyone) {
      await recordActionForHookOwners(tx, {
        code: reason === null ? 'HooksResume' : 'HooksPause',
        metadata: { ...(reason === null ? {} : { reason }), everyone: true },
        shortKeys,
        exceptUserId: actor.userId,
      });
      await recordAudit(tx, {
        adminId: everyone.adminId,
        action: reason === null ? AUDIT_ACTIONS.hooksResumeAll : AUDIT_ACTIONS.hooksPauseAll,
        details: { ...(reason === null ? {} : { reason }), hooks: webhooks },
      });
    }
    return webhooks;
  });
  hooksChangedHere(services, changed);
  return webhooks;
}
