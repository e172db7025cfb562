// LISTEN hook_changed: the payload is a shortKey whose cached copy is dropped (an empty payload
// drops all). After a lost connection the whole cache is cleared, since notifications sent
// meanwhile are lost.
import type pg from 'pg';
import type { Logger } from 'pino';
import { type ChannelListener, listenChannels } from '../../db/listen.ts';
import { HOOK_CHANGED_CHANNEL as HOOK_CHANGED } from '../../db/repositories/hooks.repository.ts';

export type HookListener = ChannelListener;

export function listenHookChanges(
  pool: pg.Pool,
  log: Logger,
  handlers: { invalidate(shortKey: string): void; clear(): void },
): HookListener {
  return listenChannels(pool, log, [HOOK_CHANGED], {
    notification(_channel, payload) {
      if (payload) handlers.invalidate(payload);
      else handlers.clear();
    },
    // Anything cached may have changed while nobody listened.
    listening: () => handlers.clear(),
  });
}
