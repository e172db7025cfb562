// The dashboard tiles' figures (SPEC §2 Dashboard), from the query results.

/** Connected brokers: active connections only. */
export const activeConnectorCount = (connectors: ReadonlyArray<{ isActive: boolean }>): number =>
  connectors.filter((connector) => connector.isActive).length;

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
