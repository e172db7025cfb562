import { fireEvent, screen, waitFor } from '@testing-library/react';
import { Children, isValidElement, type ReactElement, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { Tooltip, YAxis } from 'recharts';
import { describe, expect, it } from 'vitest';
import { formatBucket } from '../../lib/format.ts';
import { fixture, graphQLError } from '../../test/fake-server.ts';
import { renderWithClient } from '../../test/render-with-client.tsx';
import { hasNoCalls, type StatsBar, type StatsRow, toBars } from './chart-data.ts';
import { HookCallsChart } from './hook-calls-chart.tsx';
import { HookCallsPanel } from './hook-calls-panel.tsx';

const DAY = 86_400_000;
/** The browser's zone: the buckets are the trader's own days, as the activity's Date filter. */
const ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;
const zeros = (count: number) =>
  Array.from({ length: count }, (_, i) => ({
    createdAt: Date.UTC(2024, 0, 1) + i * DAY,
    counter: 0,
    counterError: 0,
    counterRefused: 0,
    counterTest: 0,
  }));
/** The element of `type` in a tree of elements (recharts draws nothing measurable in jsdom). */
function findElement(node: ReactNode, type: unknown): ReactElement<Record<string, unknown>> | undefined {
  for (const child of Children.toArray(node)) {
    if (!isValidElement<Record<string, unknown>>(child)) continue;
    if (child.type === type) return child;
    const found = findElement(child.props.children as ReactNode, type);
    if (found) return found;
  }
  return undefined;
}

const row = (createdAt: number, counts: Partial<StatsRow>): StatsRow => ({
  counter: 0,
  counterError: 0,
  counterRefused: 0,
  counterTest: 0,
  ...counts,
  createdAt,
});

describe('hook calls chart (SPEC §2 Dashboard, §9)', () => {
  it('splits calls into placed, rejected, refused and test, with en-US labels per interval', () => {
    const day = Date.UTC(2024, 0, 31);
    const bars = toBars([row(day, { counter: 5, counterError: 2, counterRefused: 1, counterTest: 4 })], 'day');
    expect(bars).toEqual([
      { createdAt: day, label: '1/31', title: '1/31/2024', placed: 3, rejected: 2, refused: 1, test: 4 },
    ]);
    expect(toBars([row(Date.UTC(2024, 4, 1), { counter: 1 })], 'month')[0]?.label).toBe('May 2024');
    expect(hasNoCalls(bars)).toBe(false);
    expect(hasNoCalls(toBars([row(day, { counterRefused: 1 })], 'day'))).toBe(false);
    expect(hasNoCalls(toBars(zeros(3), 'day'))).toBe(true);
    expect(hasNoCalls([])).toBe(true);
  });

  it('groups the y-axis and tooltip counts en-US (12,345)', () => {
    const chart = HookCallsChart({ bars: [] });
    const tick = findElement(chart, YAxis)?.props.tickFormatter as ((value: number) => string) | undefined;
    const tooltip = findElement(chart, Tooltip)?.props.formatter as ((value: number) => string) | undefined;
    expect(tick?.(12345)).toBe('12,345');
    expect(tooltip?.(1500)).toBe('1,500');
    expect(tooltip?.(7)).toBe('7');
  });

  it('widens the y-axis for its longest count, so 12,345 is not clipped', () => {
    const axisWidth = (bars: StatsBar[]) => findElement(HookCallsChart({ bars }), YAxis)?.props.width as number;
    const day = Date.UTC(2024, 0, 31);
    // Six characters of a 12 px font (about 7 px each) after the tick line: more than 40 px.
    const wide = toBars([row(day, { counter: 12_000, counterRefused: 345 })], 'day');
    expect(axisWidth(wide)).toBeGreaterThanOrEqual(10 + 7 * '12,345'.length);
    // 9,800 calls put 10,000 at the top of the axis.
    expect(axisWidth(toBars([row(day, { counter: 9_800 })], 'day'))).toBeGreaterThanOrEqual(10 + 7 * '10,000'.length);
    expect(axisWidth(toBars([row(day, { counter: 12 })], 'day'))).toBe(40);
    expect(axisWidth([])).toBe(40);
  });

  it('labels the buckets in the zone the server counted them in (UTC after a fallback)', () => {
    // The 2/1 of UTC+14 starts at 1/31 10:00 UTC.
    const start = Date.UTC(2024, 0, 31, 10);
    expect(toBars([row(start, { counter: 1 })], 'day', 'Pacific/Kiritimati')[0]).toMatchObject({
      label: '2/1',
      title: '2/1/2024',
    });
    expect(toBars([row(Date.UTC(2024, 0, 31), { counter: 1 })], 'week', 'UTC')[0]?.title).toBe('Week of 1/31/2024');
    // An hour reads on the trader's own clock, whichever zone counted it.
    expect(toBars([row(start, { counter: 1 })], 'hour', 'Pacific/Kiritimati')[0]?.label).toBe(
      formatBucket(start, 'hour'),
    );
  });

  it("asks the last 24 hourly buckets of the browser's zone network-only; 'No stats' when every bucket is zero", async () => {
    const { calls } = renderWithClient(<HookCallsPanel />, {
      DashboardOrderStats: fixture(({ variables }) => ({
        data: { actionsOrderStats: zeros(Number(variables.width)) },
      })),
    });
    expect(await screen.findByText('No stats')).toBeTruthy();
    expect(calls('DashboardOrderStats')[0]?.variables).toEqual({ interval: 'hour', width: 24, timeZone: ZONE });
    fireEvent.click(screen.getByLabelText('Week'));
    await screen.findByText('No stats');
    expect(calls('DashboardOrderStats').at(-1)?.variables).toEqual({ interval: 'week', width: 8, timeZone: ZONE });
    fireEvent.click(screen.getByLabelText('Month'));
    await screen.findByText('No stats');
    expect(calls('DashboardOrderStats').at(-1)?.variables).toEqual({ interval: 'month', width: 12, timeZone: ZONE });
  });

  it('keeps the interval in the address: a reload shows the same one; a bad one reads hour', async () => {
    function Address() {
      const { search } = useLocation();
      return <output data-testid="address">{search}</output>;
    }
    const handlers = {
      DashboardOrderStats: fixture(({ variables }) => ({
        data: { actionsOrderStats: zeros(Number(variables.width)) },
      })),
    };
    const first = renderWithClient(
      <>
        <HookCallsPanel />
        <Address />
      </>,
      handlers,
      '/me?hook=hk1',
    );
    await screen.findByText('No stats');
    fireEvent.click(screen.getByLabelText('Week'));
    await waitFor(() => expect(screen.getByTestId('address').textContent).toBe('?hook=hk1&interval=week'));
    first.unmount();

    const reloaded = renderWithClient(<HookCallsPanel />, handlers, '/me?hook=hk1&interval=week');
    await screen.findByText('No stats');
    expect(screen.getByRole('radio', { name: 'Week' })).toHaveProperty('checked', true);
    expect(reloaded.calls('DashboardOrderStats').map((call) => call.variables.interval)).toEqual(['week']);
    reloaded.unmount();

    renderWithClient(<HookCallsPanel />, handlers, '/me?interval=year');
    await screen.findByText('No stats');
    expect(screen.getByRole('radio', { name: 'Hour' })).toHaveProperty('checked', true);
  });

  it('offers the intervals as one radio group: one tab stop, no extra buttons', async () => {
    renderWithClient(<HookCallsPanel />, {
      DashboardOrderStats: fixture(({ variables }) => ({
        data: { actionsOrderStats: zeros(Number(variables.width)) },
      })),
    });
    const group = await screen.findByRole('radiogroup', { name: 'Chart interval' });
    for (const name of ['Hour', 'Day', 'Week', 'Month'])
      expect(screen.getByRole('radio', { name }).closest('[role="radiogroup"]')).toBe(group);
    expect(screen.getByRole('radio', { name: 'Hour' })).toHaveProperty('checked', true);
    // Their labels are what is clicked, not controls of their own: no 'Hour' button, no tab stop.
    expect(screen.queryAllByRole('button', { name: /^(Hour|Day|Week|Month)$/ })).toEqual([]);
    expect(group.querySelectorAll('label[tabindex]')).toHaveLength(0);
  });

  it('draws the chart when some bucket has calls', async () => {
    const rows = zeros(24).map((r, i) => (i === 3 ? { ...r, counter: 4, counterError: 1 } : r));
    renderWithClient(<HookCallsPanel />, {
      DashboardOrderStats: fixture(() => ({ data: { actionsOrderStats: rows } })),
    });
    expect(await screen.findByTestId('hook-calls-chart')).toBeTruthy();
    expect(screen.queryByText('No stats')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('offers to try again when the stats fail to load', async () => {
    let fail = true;
    const { calls } = renderWithClient(<HookCallsPanel />, {
      DashboardOrderStats: fixture(() =>
        fail ? graphQLError('Database unavailable', 'INTERNAL') : { data: { actionsOrderStats: zeros(24) } },
      ),
    });
    expect(await screen.findByText('Could not load the hook calls.')).toBeTruthy();
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('No stats')).toBeTruthy();
    expect(calls('DashboardOrderStats')).toHaveLength(2);
  });

  it("falls back to UTC buckets when the server does not know the browser's zone", async () => {
    const { calls } = renderWithClient(<HookCallsPanel />, {
      DashboardOrderStats: fixture(({ variables }) =>
        variables.timeZone
          ? {
              data: null,
              errors: [{ message: 'Invalid timeZone', extensions: { code: 'BAD_USER_INPUT', field: 'timeZone' } }],
            }
          : { data: { actionsOrderStats: zeros(Number(variables.width)) } },
      ),
    });
    expect(await screen.findByText('No stats')).toBeTruthy();
    expect(screen.queryByText('Could not load the hook calls.')).toBeNull();
    expect(calls('DashboardOrderStats').at(-1)?.variables).toEqual({ interval: 'hour', width: 24 });
  });
});
