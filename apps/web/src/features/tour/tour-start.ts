/** Index of the last step, the 'connect a broker' modal. */
export const CONNECTOR_STEP = 5;

export interface TourFacts {
  dismissed: boolean;
  /** Null while the connectors are loading or failed to load. */
  connectorCount: number | null;
  /** Null while the ConnectorActivate look-up runs. */
  hasActivation: boolean | null;
}

/**
 * SPEC §2: the tour starts only for a user without connectors; at the connector step when a
 * connector was activated before, else at the welcome. Null: do not start (or not yet known).
 */
export function tourStartStep({ dismissed, connectorCount, hasActivation }: TourFacts): number | null {
  if (dismissed || connectorCount !== 0 || hasActivation === null) return null;
  return hasActivation ? CONNECTOR_STEP : 0;
}
