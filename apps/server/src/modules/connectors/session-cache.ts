// Decrypted broker sessions of this process, so the hook path decrypts once per connector
// version: an entry is valid for the connector's updated_at it was read at (any update, a
// token refresh included, bumps it). Kept per Services (one per running server).
import type { BrokerSession } from '@router/brokers';
import { perServices } from '../../per-services.ts';
import type { Services } from '../../services.ts';

export interface CachedSession {
  /** connectors.updated_at (ms) of the secrets this session came from. */
  updatedAt: number;
  session: BrokerSession;
}

const MAX_ENTRIES = 10_000;
const cacheOf = perServices(() => new Map<number, CachedSession>());

/** The cached session unless the caller has seen a newer version of the connector. */
export function cachedSession(services: Services, id: number, updatedAt: number): CachedSession | undefined {
  const entry = cacheOf(services).get(id);
  return entry && entry.updatedAt >= updatedAt ? entry : undefined;
}

export function storeSession(services: Services, id: number, entry: CachedSession): void {
  const cache = cacheOf(services);
  cache.delete(id);
  // Oldest inserted first: drop it when full (connectors in use are re-inserted on refresh).
  if (cache.size >= MAX_ENTRIES) {
    const oldest = cache.keys().next();
    if (!oldest.done) cache.delete(oldest.value);
  }
  cache.set(id, entry);
}

export function forgetSession(services: Services, id: number): void {
  cacheOf(services).delete(id);
}
