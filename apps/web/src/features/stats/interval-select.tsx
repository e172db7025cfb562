import { STATS_INTERVALS, type StatsInterval } from '@router/shared';
import ToggleButton from 'react-bootstrap/ToggleButton';
import ToggleButtonGroup from 'react-bootstrap/ToggleButtonGroup';

const LABELS: Record<StatsInterval, string> = { hour: 'Hour', day: 'Day', week: 'Week', month: 'Month' };

/** SPEC §2: the chart's interval, a radio group (arrow keys move between the options). */
export function IntervalSelect({
  value,
  onChange,
}: {
  value: StatsInterval;
  onChange: (interval: StatsInterval) => void;
}) {
  return (
    <ToggleButtonGroup
      type="radio"
      name="stats-interval"
      size="sm"
      value={value}
      onChange={(next: StatsInterval) => onChange(next)}
      aria-label="Chart interval"
    >
      {STATS_INTERVALS.map((interval) => (
        <ToggleButton key={interval} id={`stats-interval-${interval}`} value={interval} variant="outline-secondary">
          {LABELS[interval]}
        </ToggleButton>
      ))}
    </ToggleButtonGroup>
  );
}
