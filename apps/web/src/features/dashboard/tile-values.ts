// The dashboard tiles' figures (SPEC §2 Dashboard), from the query results.
import { formatCount } from '../../lib/format.ts';

export interface ConnectorCounts {
  connected: number;
  /** Deactivated or expired (SPEC §2): signals to them fail until the broker is reconnected. */
  toReconnect: number;
}

/**
 * Connected brokers (SPEC §2: the brokers listed on Brokers & Webhooks, a deactivated or expired
 * one too: it is still there, to be reconnected), and how many of them need reconnecting.
 */
export const connectorCounts = (
  connectors: ReadonlyArray<{ isActive: boolean; expiresAt?: number | null }>,
  now: number = Date.now(),
): ConnectorCounts => ({
  connected: connectors.length,
  toReconnect: connectors.filter(
    (connector) => !connector.isActive || (typeof connector.expiresAt === 'number' && connector.expiresAt <= now),
  ).length,
});

/** The tile's hint: where to go, or that a connection needs reconnecting. */
export function connectorHint({ connected, toReconnect }: ConnectorCounts): string {
  if (connected === 0) return 'Connect a broker';
  if (toReconnect > 0) return `${formatCount(toReconnect)} to reconnect on Brokers & Webhooks`;
  return 'Brokers & Webhooks';
}

/** SPEC §9: the balance is shown floored at 0 (a negative balance reads as none left). */
export const signalsLeft = (balance: number): number => Math.max(0, Math.floor(balance));

/** Signals in the last 24 h: the total row of actionsOrderCounters (none: zeros). */
export function lastDayCounts(rows: ReadonlyArray<{ counter: number; counterTest: number }>): {
  live: number;
  test: number;
} {
  return rows.reduce((sum, row) => ({ live: sum.live + row.counter, test: sum.test + row.counterTest }), {
    live: 0,
    test: 0,
  });
}
