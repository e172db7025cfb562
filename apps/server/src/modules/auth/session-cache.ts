// A small LRU of token hash → resolved session, each entry trusted for at most a few seconds.
// Kept coherent across instances by session_changed notifications (session-changes.ts): a
// revocation or a change of groups anywhere evicts at once everywhere; the TTL only bounds what
// a lost listening connection could leave behind until it reconnects (and clears everything).
import type { ActiveSession } from '../../db/repositories/session.repository.ts';

const TTL_MS = 5_000;
const MAX_ENTRIES = 5_000;

export class SessionCache {
  readonly #entries = new Map<string, { session: ActiveSession; until: number }>();
  /** Bumped by every eviction: a lookup that began before one may hold what it evicted. */
  #generation = 0;

  get generation(): number {
    return this.#generation;
  }

  get(tokenHash: string): ActiveSession | undefined {
    const entry = this.#entries.get(tokenHash);
    if (!entry) return undefined;
    const now = Date.now();
    if (entry.until <= now || (entry.session.expiresAt && entry.session.expiresAt.getTime() <= now)) {
      this.#entries.delete(tokenHash);
      return undefined;
    }
    return entry.session;
  }

  /** Kept only when nothing was evicted since `since` (the generation the lookup began at). */
  set(tokenHash: string, session: ActiveSession, since = this.#generation): void {
    if (since !== this.#generation) return;
    this.#entries.delete(tokenHash);
    this.#entries.set(tokenHash, { session, until: Date.now() + TTL_MS });
    if (this.#entries.size > MAX_ENTRIES) {
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
  }

  evict(tokenHashes: Iterable<string | undefined>): void {
    this.#generation++;
    for (const hash of tokenHashes) if (hash) this.#entries.delete(hash);
  }

  /** Drops every entry of a user (group or password change). */
  evictUser(userId: number): void {
    this.#generation++;
    for (const [hash, entry] of this.#entries) if (entry.session.userId === userId) this.#entries.delete(hash);
  }

  /** Drops everything (the listening connection was lost: notifications may have been missed). */
  clear(): void {
    this.#generation++;
    this.#entries.clear();
  }
}
