// LISTEN hook_changed: the payload is a shortKey whose cached copy is dropped (an empty payload
// drops all). After a lost connection the whole cache is cleared, since notifications sent
// meanwhile are lost. Other caches kept coherent the same way (the session cache's
// session_changed) share the connection: one held connection per instance (docs/SCALING.md).
import type pg from 'pg';
import type { Logger } from 'pino';
import { type ChannelListener, listenChannels } from '../../db/listen.ts';
import { HOOK_CHANGED_CHANNEL as HOOK_CHANGED } from '../../db/repositories/hooks.repository.ts';

export type HookListener = ChannelListener;

/** Another channel on the same connection. */
export interface ChannelHandler {
  channel: string;
  notification(payload: string): void;
  listening(): void;
}

export function listenHookChanges(
  pool: pg.Pool,
  log: Logger,
  handlers: { invalidate(shortKey: string): void; clear(): void },
  others: readonly ChannelHandler[] = [],
): HookListener {
  return listenChannels(pool, log, [HOOK_CHANGED, ...others.map((o) => o.channel)], {
    notification(channel, payload) {
      if (channel !== HOOK_CHANGED) others.find((o) => o.channel === channel)?.notification(payload);
      else if (payload) handlers.invalidate(payload);
      else handlers.clear();
    },
    // Anything cached may have changed while nobody listened.
    listening: () => {
      handlers.clear();
      for (const other of others) other.listening();
    },
  });
}
