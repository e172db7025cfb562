import { STATS_INTERVALS, type StatsInterval } from '@router/shared';
import { Fragment } from 'react';

const LABELS: Record<StatsInterval, string> = { hour: 'Hour', day: 'Day', week: 'Week', month: 'Month' };

/**
 * SPEC §2: the chart's interval, a radio group (one tab stop; arrow keys move between the
 * options). Drawn as Bootstrap's toggle buttons by hand: react-bootstrap's ToggleButton makes each
 * label a focusable role="button" too, four more tab stops and controls a screen reader announces.
 */
export function IntervalSelect({
  value,
  onChange,
}: {
  value: StatsInterval;
  onChange: (interval: StatsInterval) => void;
}) {
  return (
    <div className="btn-group btn-group-sm" role="radiogroup" aria-label="Chart interval">
      {STATS_INTERVALS.map((interval) => (
        <Fragment key={interval}>
          <input
            id={`stats-interval-${interval}`}
            type="radio"
            className="btn-check"
            name="stats-interval"
            value={interval}
            checked={value === interval}
            onChange={() => onChange(interval)}
          />
          <label className="btn btn-outline-secondary" htmlFor={`stats-interval-${interval}`}>
            {LABELS[interval]}
          </label>
        </Fragment>
      ))}
    </div>
  );
}
