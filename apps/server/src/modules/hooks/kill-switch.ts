// The kill switch (hooksPause / hooksResume): every webhook of the user, or of everyone for an
// admin, refuses signals with the reason until resumed. Each paused signal still gets its
// activity entry (the signal path refuses it as `paused`), so none is lost silently.
import { recordAction } from '../../db/repositories/action.repository.ts';
import { notifyHookChanged, setHooksPaused } from '../../db/repositories/hooks.repository.ts';
import { AppError } from '../../errors.ts';
import type { Services } from '../../services.ts';
import type { Actor } from '../connectors/index.ts';

const MAX_REASON = 256;

/** `everyone` is for admins (checked by the caller). Returns how many webhooks changed. */
export async function pauseHooks(services: Services, actor: Actor, reason: string, everyone = false): Promise<number> {
  const text = reason.trim();
  if (!text) throw new AppError('VALIDATION', 'Required', { field: 'reason' });
  if (text.length > MAX_REASON)
    throw new AppError('VALIDATION', `At most ${MAX_REASON} characters`, { field: 'reason' });
  return switchHooks(services, actor, text, everyone);
}

export function resumeHooks(services: Services, actor: Actor, everyone = false): Promise<number> {
  return switchHooks(services, actor, null, everyone);
}

async function switchHooks(services: Services, actor: Actor, reason: string | null, everyone: boolean) {
  return services.db.transaction(async (tx) => {
    const shortKeys = await setHooksPaused(tx, everyone ? null : actor.userId, reason);
    // Sent on commit: every instance drops these hooks from its cache.
    await notifyHookChanged(tx, shortKeys);
    await recordAction(tx, {
      userId: actor.userId,
      code: reason === null ? 'HooksResume' : 'HooksPause',
      address: actor.address,
      metadata: { ...(reason === null ? {} : { reason }), everyone, hooks: shortKeys.length },
    });
    return shortKeys.length;
  });
}
