// LISTEN on one dedicated connection, for one or more channels. When the connection drops we
// reconnect with back-off and call onListening again: notifications sent meanwhile are lost,
// so whoever listens treats every (re)connection as "anything may have changed".
import type pg from 'pg';
import type { Logger } from 'pino';

export interface ChannelListener {
  /** Resolves once listening (or after the first failed attempt; retries go on). */
  ready: Promise<void>;
  close(): Promise<void>;
}

export interface ListenHandlers {
  notification(channel: string, payload: string): void;
  /** Listening (again): what was missed while nobody listened is unknown. */
  listening(): void;
}

export function listenChannels(
  pool: pg.Pool,
  log: Logger,
  channels: readonly string[],
  handlers: ListenHandlers,
): ChannelListener {
  let client: pg.PoolClient | undefined;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  let delay = 250;
  const names = channels.join(', ');

  const onNotification = (message: pg.Notification) => {
    if (channels.includes(message.channel)) handlers.notification(message.channel, message.payload ?? '');
  };

  const detach = (current: pg.PoolClient) => {
    current.removeListener('notification', onNotification);
    current.removeListener('error', drop);
    current.removeListener('end', onEnd);
  };

  const drop = (error?: Error) => {
    const current = client;
    client = undefined;
    if (!current) return;
    detach(current);
    // Destroy, never return to the pool: it is (or was) in LISTEN mode.
    current.release(error ?? true);
    if (!closed) {
      log.warn({ err: error }, `${names} listener lost its connection; reconnecting`);
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
      for (const channel of channels) await next.query(`LISTEN ${channel}`);
      if (closed) return drop();
      handlers.listening();
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
        detach(current);
        await current.query('UNLISTEN *').catch(() => {});
        current.release(true);
      }
    },
  };
}
