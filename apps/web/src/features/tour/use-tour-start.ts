import { useState } from 'react';
import { useQuery } from 'urql';
import { TourConnectorActivationsDocument } from './documents.ts';
import { tourStartStep } from './tour-start.ts';
import { dismissTour, isTourDismissed } from './tour-storage.ts';

/** Whether and where the welcome tour starts, and how to remember it was dismissed. */
export function useTourStart(userKey: string, connectorCount: number | null) {
  const [dismissed, setDismissed] = useState(() => isTourDismissed(userKey));
  const asks = !dismissed && connectorCount === 0;
  const [activations] = useQuery({
    query: TourConnectorActivationsDocument,
    pause: !asks,
    requestPolicy: 'network-only',
  });
  // A failed look-up starts at the welcome rather than never.
  const hasActivation = activations.data
    ? activations.data.actions.length > 0
    : activations.error && !activations.fetching
      ? false
      : null;
  const startAt = tourStartStep({ dismissed, connectorCount, hasActivation });
  const dismiss = () => {
    dismissTour(userKey);
    setDismissed(true);
  };
  return { startAt, dismiss };
}
