import { Bar, BarChart, CartesianGrid, Legend, Tooltip, XAxis, YAxis } from 'recharts';
import { CHART_HEIGHT, CHART_Y_TICKS, type StatsBar } from './chart-data.ts';

// Bootstrap's success and danger (SVG attributes do not read CSS variables everywhere).
const SUCCESS = '#198754';
const DANGER = '#dc3545';

const titleOf = (payload: ReadonlyArray<{ payload?: unknown }>): string => {
  const bar = payload[0]?.payload as StatsBar | undefined;
  return bar?.title ?? '';
};

/** Stacked bars of hook calls: successes and errors in different colours (SPEC §2). */
export function HookCallsChart({ bars }: { bars: StatsBar[] }) {
  return (
    <figure className="m-0" data-testid="hook-calls-chart" aria-label="Hook calls: successes and errors per interval">
      <BarChart
        responsive
        style={{ width: '100%', height: CHART_HEIGHT }}
        data={bars}
        margin={{ top: 8, right: 8, bottom: 0, left: 0 }}
        accessibilityLayer
      >
        <CartesianGrid vertical={false} strokeDasharray="3 3" />
        <XAxis dataKey="label" tick={{ fontSize: 12 }} tickLine={false} minTickGap={12} />
        <YAxis allowDecimals={false} tickCount={CHART_Y_TICKS} width={40} tick={{ fontSize: 12 }} />
        <Tooltip labelFormatter={(_label, payload) => titleOf(payload)} cursor={{ fill: 'rgba(0,0,0,0.05)' }} />
        <Legend iconType="square" itemSorter={null} wrapperStyle={{ fontSize: 12 }} />
        <Bar dataKey="successes" name="Successes" stackId="calls" fill={SUCCESS} isAnimationActive={false} />
        <Bar dataKey="errors" name="Errors" stackId="calls" fill={DANGER} isAnimationActive={false} />
      </BarChart>
    </figure>
  );
}
