import { useMemo } from 'react';
import { ACTIONS, EVENTS, type EventHandler, Joyride, STATUS } from 'react-joyride';
import { tourSteps } from './tour-steps.tsx';
import { TourFinishContext, TourTooltip } from './tour-tooltip.tsx';

interface WelcomeTourProps {
  startAt: number;
  /** Skipped, closed or finished: remembered so the tour does not come back every load. */
  onDismiss: () => void;
}

/**
 * Joyride's own loader adds a <style> element, which the Content Security Policy refuses (no
 * inline styles): Bootstrap's spinner instead.
 */
function TourLoader() {
  return (
    <div className="spinner-border text-light" role="status">
      <span className="visually-hidden">Loading…</span>
    </div>
  );
}

/** SPEC §2 welcome tour (react-joyride; loaded only when it runs). */
export function WelcomeTour({ startAt, onDismiss }: WelcomeTourProps) {
  const steps = useMemo(tourSteps, []);
  const onEvent: EventHandler = (data, controls) => {
    // Escape and the close button end the tour rather than stepping on.
    if (data.type === EVENTS.STEP_AFTER && data.action === ACTIONS.CLOSE) controls.skip();
    if (data.status === STATUS.SKIPPED || data.status === STATUS.FINISHED) onDismiss();
  };
  return (
    <TourFinishContext value={onDismiss}>
      <Joyride
        run
        continuous
        steps={steps}
        initialStepIndex={startAt}
        onEvent={onEvent}
        tooltipComponent={TourTooltip}
        loaderComponent={TourLoader}
        options={{
          skipBeacon: true,
          closeButtonAction: 'skip',
          overlayClickAction: false,
          primaryColor: '#0d6efd',
          zIndex: 1080,
          width: 380,
        }}
      />
    </TourFinishContext>
  );
}
