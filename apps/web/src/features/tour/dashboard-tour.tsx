import { lazy, Suspense } from 'react';
import { useTourStart } from './use-tour-start.ts';

// react-joyride loads only for a user the tour is shown to.
const WelcomeTour = lazy(() => import('./welcome-tour.tsx').then((m) => ({ default: m.WelcomeTour })));

/** The welcome tour of the dashboard, when SPEC §2's rule says so and it was not dismissed. */
export function DashboardTour({ userKey, connectorCount }: { userKey: string; connectorCount: number | null }) {
  const { startAt, dismiss } = useTourStart(userKey, connectorCount);
  if (startAt === null) return null;
  return (
    <Suspense fallback={null}>
      <WelcomeTour startAt={startAt} onDismiss={dismiss} />
    </Suspense>
  );
}
