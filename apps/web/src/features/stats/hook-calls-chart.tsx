import { Bar, BarChart, CartesianGrid, Legend, Tooltip, XAxis, YAxis } from 'recharts';
import { formatCount } from '../../lib/format.ts';
import { CHART_HEIGHT, CHART_Y_TICKS, SERIES, type StatsBar, yAxisWidth } from './chart-data.ts';

const titleOf = (payload: ReadonlyArray<{ payload?: unknown }>): string => {
  const bar = payload[0]?.payload as StatsBar | undefined;
  return bar?.title ?? '';
};

/** Call counts on the axis and in the tooltip, grouped en-US (SPEC §9): 12,345. */
const countOf = (value: unknown): string => (typeof value === 'number' ? formatCount(value) : String(value ?? ''));

/** Stacked bars of hook calls: placed, rejected, refused and test calls in different colours (SPEC §2). */
export function HookCallsChart({ bars }: { bars: StatsBar[] }) {
  return (
    <figure
      className="m-0"
      data-testid="hook-calls-chart"
      aria-label="Hook calls: placed, rejected, refused and test calls per interval"
    >
      <BarChart
        responsive
        style={{ width: '100%', height: CHART_HEIGHT }}
        data={bars}
        margin={{ top: 8, right: 8, bottom: 0, left: 0 }}
        accessibilityLayer
      >
        <CartesianGrid vertical={false} strokeDasharray="3 3" />
        <XAxis dataKey="label" tick={{ fontSize: 12 }} tickLine={false} minTickGap={12} />
        <YAxis
          allowDecimals={false}
          tickCount={CHART_Y_TICKS}
          tickFormatter={countOf}
          width={yAxisWidth(bars)}
          tick={{ fontSize: 12 }}
        />
        <Tooltip
          formatter={countOf}
          labelFormatter={(_label, payload) => titleOf(payload)}
          cursor={{ fill: 'rgba(0,0,0,0.05)' }}
        />
        <Legend iconType="square" itemSorter={null} wrapperStyle={{ fontSize: 12 }} />
        {SERIES.map((series) => (
          <Bar
            key={series.key}
            dataKey={series.key}
            name={series.name}
            stackId="calls"
            fill={series.color}
            isAnimationActive={false}
          />
        ))}
      </BarChart>
    </figure>
  );
}
