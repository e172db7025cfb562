// The background refresher: every minute, stored broker sessions whose refresh time has passed
// are refreshed through withBrokerSession (one refresh per connector at a time, across instances
// by its refresh lock). So a signal seldom waits for a token refresh on its way to the broker, and a
// session that lapses when unused (Questrade's single-use refresh token, Tradovate's and IBKR's
// sessions, Saxo's refresh token) stays alive while nobody trades. A pass also forgets pending
// OAuth connections abandoned past their window (with E*TRADE's sealed request tokens).
import {
  deleteExpiredPendingConnectors,
  listConnectorsDueForRefresh,
} from '../../db/repositories/connectors.repository.ts';
import type { Services } from '../../services.ts';
import { OAUTH_STATE_TTL_MS } from './create.ts';
import { saveKeptSessions } from './kept-sessions.ts';
import { withBrokerSession } from './session.ts';

const INTERVAL_MS = 60_000;
const BATCH = 50;

export interface RefreshPass {
  refreshed: number;
  failed: number;
}

/**
 * One pass over the connectors due now, in batches. Each is tried once: a refresh that failed
 * keeps its refresh time, so without skipping it the same most overdue batch, failing pass after
 * pass (its broker down), would keep every other session from being refreshed until it lapsed.
 * Once `stopping` is aborted (the server stops) it ends after the refresh in hand: the rest are
 * due at the next start. A shutdown that waited for every due refresh (each up to a broker's
 * timeout) could outlast the supervisor's grace and be killed in the middle of one, which spends a
 * single-use refresh token (Questrade) without storing its successor: the user must reconnect.
 */
export async function refreshDueConnectors(
  services: Services,
  now = new Date(),
  batch = BATCH,
  stopping?: AbortSignal,
): Promise<RefreshPass> {
  // A callback after this is refused anyway (activate.ts reads pending rows within the same window).
  const expired = await deleteExpiredPendingConnectors(services.db, new Date(now.getTime() - OAUTH_STATE_TTL_MS));
  if (expired) services.log.info({ expired }, 'abandoned OAuth authorizations forgotten');
  // Renewed sessions the database did not take yet: saved before anything is refreshed.
  await saveKeptSessions(services);
  const refreshing = services.brokers
    .descriptors()
    .filter((descriptor) => descriptor.has.refresh !== false)
    .map((descriptor) => descriptor.name);
  const pass: RefreshPass = { refreshed: 0, failed: 0 };
  const tried: number[] = [];
  for (;;) {
    const due = await listConnectorsDueForRefresh(services.db, refreshing, now, batch, tried);
    for (const connector of due) {
      if (stopping?.aborted) return pass;
      tried.push(connector.id);
      try {
        // A refused refresh deactivates the connector there (and tells its user).
        await withBrokerSession(services, connector, async () => undefined, { refreshOnly: true });
        pass.refreshed++;
      } catch (error) {
        pass.failed++;
        services.log.info({ err: error, connectorId: connector.id }, 'background token refresh failed');
      }
    }
    if (due.length < batch) return pass;
  }
}

/**
 * Runs a pass every minute (`intervalMs`); the returned function stops it: the running pass ends
 * after the refresh in hand, and is waited for. A tick while a pass still runs (many due, a broker
 * slow to answer) is skipped: passes never pile up behind it.
 */
export function startConnectorRefresher(
  services: Services,
  runPass: (services: Services, stopping: AbortSignal) => Promise<RefreshPass> = (s, stopping) =>
    refreshDueConnectors(s, new Date(), BATCH, stopping),
  intervalMs = INTERVAL_MS,
): () => Promise<void> {
  const stopping = new AbortController();
  let running: Promise<void> | undefined;
  const timer = setInterval(() => {
    if (running) return;
    running = runPass(services, stopping.signal)
      .then(
        (pass) => {
          if (pass.refreshed || pass.failed) services.log.info(pass, 'background token refresh');
        },
        (error: unknown) => services.log.error({ err: error }, 'background token refresh pass failed'),
      )
      .finally(() => {
        running = undefined;
      });
  }, intervalMs);
  timer.unref();
  return async () => {
    stopping.abort();
    clearInterval(timer);
    await running;
    // A renewed session not saved yet is lost with the process: a last try.
    await saveKeptSessions(services);
  };
}
