// Invalid requests are counted per hook in an hour window (after the answer, one statement);
// the one that reaches HOOK_INVALID_THRESHOLD deactivates the hook, notifies hook_changed and
// logs a 'HookDeactivate' action (a code of ours beside SPEC's, worded by describeAction).
import { countInvalidRequest, INVALID_REQUESTS_REASON } from '../../db/repositories/hook-activity.repository.ts';
import type { HookEntry } from '../hooks/index.ts';
import type { SignalRuntime } from './runtime.ts';

export function countInvalid(rt: SignalRuntime, entry: HookEntry, address: string): void {
  const { services } = rt;
  countInvalidRequest(services.db.$client, entry.hookId, services.config.HOOK_INVALID_THRESHOLD).then(
    (counted) => {
      if (!counted?.deactivated) return;
      rt.hooks.invalidate(entry.shortKey);
      rt.writer.action({
        userId: counted.userId,
        code: 'HookDeactivate',
        address,
        metadata: {
          hook: { key: counted.hookKey, name: counted.name },
          providerName: entry.providerName,
          accountId: entry.accountId,
          reason: INVALID_REQUESTS_REASON,
          invalidCount: counted.count,
        },
        createdAt: new Date(),
      });
    },
    (error: unknown) => services.log.error({ err: error }, 'invalid request not counted'),
  );
}
