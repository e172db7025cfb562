import { createContext, use } from 'react';
import type { TooltipRenderProps } from 'react-joyride';
import { Link } from 'react-router';

/** What the last step's link does besides navigating: end the tour and remember it. */
export const TourFinishContext = createContext<() => void>(() => {});

/** Bootstrap-styled tooltip: Skip tour, and Continue (or the link to /me/connector at the end). */
export function TourTooltip({
  step,
  index,
  size,
  isLastStep,
  primaryProps,
  skipProps,
  tooltipProps,
}: TooltipRenderProps) {
  const finish = use(TourFinishContext);
  const titleId = `tour-step-${index}-title`;
  return (
    <div
      role="alertdialog"
      aria-modal={tooltipProps['aria-modal']}
      aria-labelledby={titleId}
      className="card shadow border-0 tour-tooltip"
    >
      <div className="card-body">
        <h2 id={titleId} className="h5 card-title">
          {step.title}
        </h2>
        <div className="card-text">{step.content}</div>
      </div>
      <div className="card-footer bg-body d-flex align-items-center justify-content-between gap-2">
        <button
          type="button"
          className="btn btn-link link-secondary px-0"
          onClick={skipProps.onClick}
          data-action={skipProps['data-action']}
        >
          {isLastStep ? 'Later' : 'Skip tour'}
        </button>
        <span className="small text-secondary ms-auto">
          {index + 1} of {size}
        </span>
        {isLastStep ? (
          <Link to="/me/connector" className="btn btn-primary" onClick={finish}>
            Connect a broker
          </Link>
        ) : (
          <button
            type="button"
            className="btn btn-primary"
            onClick={primaryProps.onClick}
            data-action={primaryProps['data-action']}
          >
            Continue
          </button>
        )}
      </div>
    </div>
  );
}
