// NOTIFY session_changed: every instance drops its cached copy of a revoked credential ('t:' and
// the token hash) or of all a user's sessions ('u:' and the user id: groups changed, sessions
// ended), so a signed-out session or a removed role stops at once on every instance, as hooks do
// (hook_changed). Sent inside the caller's transaction, it goes out on commit.
import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/repositories/executor.ts';
import type { Services } from '../../services.ts';
import type { SessionCache } from './session-cache.ts';

export const SESSION_CHANGED_CHANNEL = 'session_changed';

async function notify(db: Executor, payloads: readonly string[]): Promise<void> {
  if (payloads.length === 0) return;
  await db.execute(
    sql`select pg_notify(${SESSION_CHANGED_CHANNEL}, p) from unnest(${sql.param([...payloads])}::text[]) as p`,
  );
}

/** Credentials revoked: evicted here at once, elsewhere on the notification. */
export async function tokensChanged(services: Services, tokenHashes: readonly (string | undefined)[]): Promise<void> {
  const hashes = tokenHashes.filter((h): h is string => Boolean(h));
  services.identity.sessions.evict(hashes);
  await notify(
    services.db,
    hashes.map((h) => `t:${h}`),
  );
}

/** A user's sessions resolve afresh everywhere (groups changed, sessions ended). */
export async function userSessionsChanged(
  services: Services,
  userId: number,
  db: Executor = services.db,
): Promise<void> {
  services.identity.sessions.evictUser(userId);
  await notify(db, [`u:${userId}`]);
}

/** What a session_changed notification (or a new listening connection) does to this instance's cache. */
export function sessionChangeHandlers(cache: SessionCache) {
  return {
    channel: SESSION_CHANGED_CHANNEL,
    notification(payload: string): void {
      if (payload.startsWith('t:')) cache.evict([payload.slice(2)]);
      else if (payload.startsWith('u:')) cache.evictUser(Number(payload.slice(2)));
      else cache.clear();
    },
    listening: () => cache.clear(),
  };
}
