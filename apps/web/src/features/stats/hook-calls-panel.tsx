import { isStatsInterval, STATS_BARS, type StatsInterval } from '@router/shared';
import { lazy, type ReactNode, Suspense, useEffect, useMemo, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import { useQuery } from 'urql';
import { DelayedSpinner } from '../../components/delayed-spinner.tsx';
import { useAddressState } from '../../lib/use-address-state.ts';
import { useLiveReload } from '../live/live-provider.tsx';
import { CHART_HEIGHT, hasNoCalls, toBars } from './chart-data.ts';
import { OrderStatsDocument } from './documents.ts';
import { IntervalSelect } from './interval-select.tsx';

// recharts is the heaviest piece of the dashboard: its own chunk, fetched alongside the stats.
const HookCallsChart = lazy(() => import('./hook-calls-chart.tsx').then((m) => ({ default: m.HookCallsChart })));

/** Hour first, as SPEC §2 lists them: the same 24 hours as the 'Signals in last 24h' tile. */
export const DEFAULT_INTERVAL: StatsInterval = 'hour';

const FRAME = 'd-flex justify-content-center align-items-center text-secondary';

const INTERVAL_PARAM = 'interval';

const readInterval = (params: URLSearchParams): StatsInterval => {
  const value = params.get(INTERVAL_PARAM) ?? '';
  return isStatsInterval(value) ? value : DEFAULT_INTERVAL;
};

const writeInterval = (params: URLSearchParams, interval: StatsInterval): URLSearchParams => {
  const next = new URLSearchParams(params);
  if (interval === DEFAULT_INTERVAL) next.delete(INTERVAL_PARAM);
  else next.set(INTERVAL_PARAM, interval);
  return next;
};

const browserZone = (): string | undefined => Intl.DateTimeFormat().resolvedOptions().timeZone || undefined;

/** SPEC §2 Dashboard: hook calls per interval; loading, error and 'No stats' states. */
export function HookCallsPanel() {
  // In the address (`/me?interval=week`): a reload, Back and Forward keep it.
  const [interval, changeInterval] = useAddressState(readInterval, writeInterval);
  const setChartInterval = (next: StatsInterval) => changeInterval(() => next);
  // The browser's days, as the activity's Date filter and the times of the activity log; UTC
  // days when the server's time zone database does not hold the browser's zone.
  const [timeZone, setTimeZone] = useState(browserZone);
  const [result, refetch] = useQuery({
    query: OrderStatsDocument,
    variables: { interval, width: STATS_BARS[interval], ...(timeZone ? { timeZone } : {}) },
    requestPolicy: 'network-only',
  });
  const zoneRefused = result.error?.graphQLErrors.some((error) => error.extensions?.field === 'timeZone') === true;
  useEffect(() => {
    if (zoneRefused) setTimeZone(undefined);
  }, [zoneRefused]);
  useLiveReload(() => refetch({ requestPolicy: 'network-only' }));
  // A live reload keeps the bars shown until the new ones come; another interval does not.
  const current = result.operation?.variables.interval === interval;
  const rows = current ? result.data?.actionsOrderStats : undefined;
  // Labelled in the zone these rows were counted in: UTC when they were asked without one.
  const rowsZone = result.operation?.variables.timeZone ? undefined : 'UTC';
  const bars = useMemo(() => (rows ? toBars(rows, interval, rowsZone) : null), [rows, interval, rowsZone]);
  const ready = bars !== null && !(result.fetching && !result.data);
  const spinner = <DelayedSpinner className={FRAME} />;

  let body: ReactNode;
  if (bars && ready) {
    body = hasNoCalls(bars) ? (
      <p className="m-0">No stats</p>
    ) : (
      <Suspense fallback={spinner}>
        <HookCallsChart bars={bars} />
      </Suspense>
    );
  } else if (result.error && !result.fetching && !(zoneRefused && timeZone)) {
    body = (
      <div className="text-center" role="alert">
        <p className="mb-2">Could not load the hook calls.</p>
        <Button size="sm" variant="outline-secondary" onClick={() => refetch({ requestPolicy: 'network-only' })}>
          Try again
        </Button>
      </div>
    );
  } else {
    body = spinner;
  }

  return (
    <Card className="shadow-sm mb-4" as="section" aria-labelledby="hook-calls-title">
      <Card.Header className="d-flex flex-wrap gap-2 justify-content-between align-items-center bg-body">
        <h2 id="hook-calls-title" className="h6 m-0">
          Hook calls
        </h2>
        <IntervalSelect value={interval} onChange={setChartInterval} />
      </Card.Header>
      <Card.Body>
        <div
          className={bars && ready && !hasNoCalls(bars) ? '' : FRAME}
          style={{ minHeight: CHART_HEIGHT }}
          data-testid="hook-calls"
        >
          {body}
        </div>
      </Card.Body>
    </Card>
  );
}
