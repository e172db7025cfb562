// LISTEN hook_changed on one dedicated connection: the payload is a shortKey whose cached copy
// is dropped (an empty payload drops all). When the connection drops we reconnect with back-off
// and clear the cache, since notifications sent meanwhile are lost.
import type pg from 'pg';
import type { Logger } from 'pino';
import { HOOK_CHANGED_CHANNEL as HOOK_CHANGED } from '../../db/repositories/hooks.repository.ts';

export interface HookListener {
  /** Resolves once listening (or after the first failed attempt; retries go on). */
  ready: Promise<void>;
  close(): Promise<void>;
}

export function listenHookChanges(
  pool: pg.Pool,
  log: Logger,
  handlers: { invalidate(shortKey: string): void; clear(): void },
): HookListener {
  let client: pg.PoolClient | undefined;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  let delay = 250;

  const onNotification = (message: pg.Notification) => {
    if (message.channel !== HOOK_CHANGED) return;
    if (message.payload) handlers.invalidate(message.payload);
    else handlers.clear();
  };

  const drop = (error?: Error) => {
    const current = client;
    client = undefined;
    if (!current) return;
    current.removeListener('notification', onNotification);
    current.removeListener('error', drop);
    current.removeListener('end', onEnd);
    // Destroy, never return to the pool: it is (or was) in LISTEN mode.
    current.release(error ?? true);
    if (!closed) {
      log.warn({ err: error }, 'hook_changed listener lost its connection; reconnecting');
      schedule();
    }
  };

  const onEnd = () => drop(new Error('connection ended'));

  const schedule = () => {
    timer = setTimeout(() => void connect(), delay);
    timer.unref();
    delay = Math.min(delay * 2, 10_000);
  };

  const connect = async (): Promise<void> => {
    if (closed) return;
    try {
      const next = await pool.connect();
      next.on('error', drop);
      next.on('end', onEnd);
      next.on('notification', onNotification);
      client = next;
      await next.query(`LISTEN ${HOOK_CHANGED}`);
      if (closed) return drop();
      // Anything cached may have changed while nobody listened.
      handlers.clear();
      delay = 250;
    } catch (error) {
      if (client) drop(error as Error);
      else if (!closed) schedule();
    }
  };

  const ready = connect();
  return {
    ready,
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      await ready;
      const current = client;
      client = undefined;
      if (current) {
        current.removeListener('notification', onNotification);
        current.removeListener('error', drop);
        current.removeListener('end', onEnd);
        await current.query(`UNLISTEN ${HOOK_CHANGED}`).catch(() => {});
        current.release(true);
      }
    },
  };
}
