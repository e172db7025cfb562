import { lazy, Suspense, useEffect, useRef } from 'react';
import { useTourStart } from './use-tour-start.ts';

// react-joyride loads only for a user the tour is shown to.
const WelcomeTour = lazy(() => import('./welcome-tour.tsx').then((m) => ({ default: m.WelcomeTour })));

/**
 * The tour's buttons go with it: when it ends (Escape, Skip tour, Later) and took the focus along,
 * the page's content takes it, so a keyboard user goes on from the dashboard, not the page's start.
 */
function useFocusContentAfter(running: boolean): void {
  const wasRunning = useRef(running);
  useEffect(() => {
    const lost = document.activeElement === null || document.activeElement === document.body;
    if (wasRunning.current && !running && lost) document.querySelector<HTMLElement>('main')?.focus();
    wasRunning.current = running;
  }, [running]);
}

/** The welcome tour of the dashboard, when SPEC §2's rule says so and it was not dismissed. */
export function DashboardTour({ userKey, connectorCount }: { userKey: string; connectorCount: number | null }) {
  const { startAt, dismiss } = useTourStart(userKey, connectorCount);
  useFocusContentAfter(startAt !== null);
  if (startAt === null) return null;
  return (
    <Suspense fallback={null}>
      <WelcomeTour startAt={startAt} onDismiss={dismiss} />
    </Suspense>
  );
}
