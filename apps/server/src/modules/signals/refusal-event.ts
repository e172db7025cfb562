// signal.refused: every refusal of submit.ts (and any rule added there later) becomes one event,
// emitted with the call's activity entry (activity-writer.ts), after the answer. The reason is
// read from the answer, so a new kind of refusal needs no change here ('refused' when unnamed).
import type { HookEntry } from '../hooks/index.ts';
import type { NotificationEvent, SignalRefusedData } from '../notifications/events.ts';
import { CONNECTOR_INACTIVE, HOOK_INACTIVE, NO_SIGNALS_LEFT } from './answers.ts';
import type { Answer } from './types.ts';

export function refusalReason(answer: Answer): SignalRefusedData['reason'] {
  const message = String(answer.body.message ?? '');
  if (message === NO_SIGNALS_LEFT.body.message) return 'no_credits';
  if (message === CONNECTOR_INACTIVE.body.message) return 'connector_inactive';
  if (message.startsWith(HOOK_INACTIVE)) return 'hook_inactive';
  if (answer.body.status === 'ValidationError') return 'invalid';
  return 'refused';
}

/** The event of a refused signal on `entry` (none for a test hook: it places nothing). */
export function refusalEvent(entry: HookEntry, answer: Answer): NotificationEvent | undefined {
  if (entry.isTest) return undefined;
  return {
    userId: entry.userId,
    connectorId: entry.connectorId,
    accountId: entry.accountId,
    type: 'signal.refused',
    data: {
      hook: {
        key: entry.hookKey,
        name: entry.name,
        ...(entry.isApi ? { api: true as const, ...(entry.via ? { via: entry.via } : {}) } : {}),
      },
      connectorKey: entry.connectorKey,
      providerName: entry.providerName,
      accountId: entry.accountId,
      reason: refusalReason(answer),
      message: String(answer.body.message ?? ''),
      ...(typeof answer.body.rule === 'string' ? { rule: answer.body.rule } : {}),
    },
  };
}
