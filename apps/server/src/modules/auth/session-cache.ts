// A small LRU of token hash → resolved session, each entry trusted for at most a few seconds.
// Revocation on this instance evicts at once; other instances see it within the TTL.
import type { ActiveSession } from '../../db/repositories/session.repository.ts';

const TTL_MS = 5_000;
const MAX_ENTRIES = 5_000;

export class SessionCache {
  readonly #entries = new Map<string, { session: ActiveSession; until: number }>();

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

  set(tokenHash: string, session: ActiveSession): void {
    this.#entries.delete(tokenHash);
    this.#entries.set(tokenHash, { session, until: Date.now() + TTL_MS });
    if (this.#entries.size > MAX_ENTRIES) {
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
  }

  evict(tokenHashes: Iterable<string | undefined>): void {
    for (const hash of tokenHashes) if (hash) this.#entries.delete(hash);
  }

  /** Drops every entry of a user (group or password change). */
  evictUser(userId: number): void {
    for (const [hash, entry] of this.#entries) if (entry.session.userId === userId) this.#entries.delete(hash);
  }
}
