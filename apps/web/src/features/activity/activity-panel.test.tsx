import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fixture, graphQLError } from '../../test/fake-server.ts';
import { deferred, renderWithClient } from '../../test/render-with-client.tsx';
import { describedAs, orderAction, page, signinAction } from './activity-fixtures.ts';
import { ActivityPanel } from './activity-panel.tsx';
import { type ActionRow, useActivity } from './use-activity.ts';

const answer = (actions: ActionRow[]) => ({ data: { actions } });

function open(answers: (variables: Record<string, unknown>) => ActionRow[] | Promise<ActionRow[]>) {
  return renderWithClient(<ActivityPanel />, {
    ActivityActions: fixture(async ({ variables }) => answer(await answers(variables))),
  });
}

const type = (text: string) => fireEvent.change(screen.getByLabelText('Search actions'), { target: { value: text } });
const wait = (ms: number) => act(async () => void vi.advanceTimersByTime(ms));
// Testing Library's findBy waits on a setTimeout of its own, which fake timers never fire.
const seen = (text: string) => vi.waitFor(() => screen.getAllByText(describedAs(text)));

describe('Last actions panel (SPEC §2, §4)', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('loads without parameters and shows description, source with platform label, local date with ISO title', async () => {
    const { calls } = open(() => [orderAction(1, { status: 'filled', id: 'o-1' }), signinAction(2)]);
    const cell = (await seen('Webhook hook1 (paper#PA-1) called'))[0] as HTMLElement;
    expect(calls('ActivityActions')[0]?.variables).toEqual({});
    const row = cell.closest('tr') as HTMLElement;
    expect(within(row).getAllByText('TradingView')).toHaveLength(2); // Source column and, on phones, under Date
    // An IPv4 address stays on one line; its platform label may go under it (a phone's narrow
    // Date column would otherwise squeeze the description to a few characters a line).
    const source = within(row).getAllByRole('cell')[1] as HTMLElement;
    expect(source.textContent).toBe('52.89.214.238 TradingView');
    expect(source.querySelector('.text-nowrap')?.textContent).toBe('52.89.214.238');
    const time = within(row).getByText(/1\/31\/2024, \d\d:\d\d/);
    expect(time.getAttribute('title')).toBe('2024-01-31T14:04:07Z');
    expect(screen.getByText('You signed in to the dashboard')).toBeTruthy();
    expect(screen.getAllByRole('columnheader').map((th) => th.textContent)).toEqual(['Last actions', 'Source', 'Date']);
  });

  it('shows a dash for a source without address', async () => {
    open(() => [{ ...signinAction(1), address: null }]);
    const row = ((await seen('You signed in to the dashboard'))[0] as HTMLElement).closest('tr') as HTMLElement;
    expect(within(row).getAllByText('-')).toHaveLength(2);
  });

  it('wraps an IPv6 source only between its groups', async () => {
    open(() => [{ ...signinAction(1), address: '2001:db8:85a3::8a2e:370:7334' }]);
    const row = ((await seen('You signed in to the dashboard'))[0] as HTMLElement).closest('tr') as HTMLElement;
    const source = within(row).getAllByRole('cell')[1] as HTMLElement;
    expect(source.textContent).toBe('2001:db8:85a3::8a2e:370:7334');
    expect(source.querySelectorAll('wbr')).toHaveLength(6); // after each of its 6 colons
  });

  it('is hidden entirely when the first load is empty', async () => {
    const { container, calls } = open(() => []);
    await act(async () => {});
    await vi.waitFor(() => expect(calls('ActivityActions')).toHaveLength(1));
    await act(async () => {});
    expect(container.textContent).toBe('');
    expect(screen.queryByPlaceholderText('Search example: AAPL')).toBeNull();
  });

  it('searches from 3 characters after 777 ms; 1–2 characters are invalid and ask nothing', async () => {
    const { calls } = open(({ search }) => (search ? [orderAction(1, { status: 'filled' })] : page(10, 3)));
    await seen('You signed in to the dashboard');
    const box = screen.getByPlaceholderText('Search example: AAPL');
    type('A');
    expect(box.className).toContain('is-invalid');
    // Said to assistive technology too, not only drawn red.
    expect(box.getAttribute('aria-invalid')).toBe('true');
    type('AA');
    await wait(2000);
    expect(calls('ActivityActions')).toHaveLength(1);
    type('AAPL');
    expect(box.className).not.toContain('is-invalid');
    expect(box.getAttribute('aria-invalid')).toBeNull();
    await wait(776);
    expect(calls('ActivityActions')).toHaveLength(1);
    await wait(1);
    expect(calls('ActivityActions')[1]?.variables).toEqual({ search: 'AAPL' });
    expect((await seen('Webhook hook1 (paper#PA-1) called'))[0] as HTMLElement).toBeTruthy();
    // Back under 3 characters: the unfiltered log again, without parameters.
    type('');
    await wait(777);
    expect(calls('ActivityActions')[2]?.variables).toEqual({});
  });

  it("opens a notification's link /me?signal=<id>: that signal's entries, expanded, and a way back", async () => {
    const { calls } = renderWithClient(
      <ActivityPanel />,
      {
        ActivityActions: fixture(async ({ variables }) =>
          answer(
            variables.signalId ? [orderAction(7, { status: 'ExecutionError', message: 'Paper: closed' })] : page(1, 3),
          ),
        ),
      },
      '/me?signal=sig123',
    );
    await seen('Activity of signal sig123');
    expect(calls('ActivityActions')[0]?.variables).toEqual({ signalId: 'sig123' });
    const response = await vi.waitFor(() => screen.getByTestId('order-call-response'));
    expect(response.textContent).toContain('Paper: closed');
    expect(screen.queryByLabelText('Search actions')).toBeNull();
    fireEvent.click(screen.getByRole('link', { name: 'Show all activity' }));
    await seen('Activity');
    await vi.waitFor(() => expect(calls('ActivityActions')[1]?.variables).toEqual({}));
    await vi.waitFor(() => expect(screen.queryByTestId('order-call-response')).toBeNull());
  });

  it("'Show all activity' keeps the rest of the address (the chart's interval) and the keyboard focus", async () => {
    function Address() {
      const location = useLocation();
      return <output data-testid="address">{location.pathname + location.search}</output>;
    }
    renderWithClient(
      <>
        <ActivityPanel />
        <Address />
      </>,
      { ActivityActions: fixture(async () => answer(page(1, 3))) },
      '/me?interval=week&signal=sig123',
    );
    const link = (await vi.waitFor(() => screen.getByRole('link', { name: 'Show all activity' }))) as HTMLElement;
    link.focus();
    fireEvent.click(link);
    await seen('Activity');
    expect(screen.getByTestId('address').textContent).toBe('/me?interval=week');
    // The link went away with the signal's view: its focus moved on to the search box, not lost.
    expect(document.activeElement).toBe(screen.getByLabelText('Search actions'));
  });

  it("shows 'No actions found' for a signal link whose entry is not there", async () => {
    renderWithClient(<ActivityPanel />, { ActivityActions: fixture(async () => answer([])) }, '/me?signal=gone');
    await seen('No actions found');
  });

  it("hides the panel when a signal link's entries cannot be loaded, rather than reading 'No actions found'", async () => {
    // What the panel decides, once the load has answered (the delayed spinner renders nothing first).
    function Probe() {
      const activity = useActivity('', undefined, 'sig123');
      return <output data-testid="probe">{activity.loaded ? String(activity.hidden) : 'loading'}</output>;
    }
    const failing = {
      ActivityActions: fixture(async () => graphQLError('Service unavailable', 'INTERNAL_SERVER_ERROR')),
    };
    renderWithClient(<Probe />, failing, '/me?signal=sig123');
    await vi.waitFor(() => expect(screen.getByTestId('probe').textContent).not.toBe('loading'));
    expect(screen.getByTestId('probe').textContent).toBe('true');
    cleanup();
    const { container } = renderWithClient(<ActivityPanel />, failing, '/me?signal=sig123');
    await vi.waitFor(() => expect(container.textContent).toBe(''));
    expect(screen.queryByText('No actions found')).toBeNull();
  });

  it("shows 'No actions found' for a search without results", async () => {
    open(({ search }) => (search ? [] : page(1, 2)));
    await seen('You signed in to the dashboard');
    type('nothing');
    await wait(777);
    expect((await seen('No actions found'))[0] as HTMLElement).toBeTruthy();
  });

  it("pages with 'More' by the createdAt of the last shown action while a batch is full", async () => {
    const first = page(1, 20);
    const { calls } = open(({ createdAtFrom }) => (createdAtFrom ? page(21, 5) : first));
    await seen('You signed in to the dashboard');
    fireEvent.click(screen.getByRole('button', { name: 'More' }));
    await vi.waitFor(() => expect(screen.getAllByText('You signed in to the dashboard')).toHaveLength(25));
    expect(calls('ActivityActions')[1]?.variables).toEqual({ createdAtFrom: first[19]?.createdAt });
    expect(screen.queryByRole('button', { name: 'More' })).toBeNull();
  });

  it("pages a signal link's entries with 'More' too, keeping the signal", async () => {
    const first = page(1, 20);
    const { calls } = renderWithClient(
      <ActivityPanel />,
      { ActivityActions: fixture(async ({ variables }) => answer(variables.createdAtFrom ? page(21, 3) : first)) },
      '/me?signal=sig123',
    );
    await seen('Activity of signal sig123');
    await vi.waitFor(() => expect(screen.getAllByText('You signed in to the dashboard')).toHaveLength(20));
    fireEvent.click(screen.getByRole('button', { name: 'More' }));
    await vi.waitFor(() => expect(screen.getAllByText('You signed in to the dashboard')).toHaveLength(23));
    expect(calls('ActivityActions')[1]?.variables).toEqual({ signalId: 'sig123', createdAtFrom: first[19]?.createdAt });
    expect(screen.queryByRole('button', { name: 'More' })).toBeNull();
  });

  it('ignores More while a request runs, and aborts it when the panel closes', async () => {
    const later = deferred<ActionRow[]>();
    const { calls, unmount } = open(({ createdAtFrom }) => (createdAtFrom ? later.promise : page(1, 20)));
    await seen('You signed in to the dashboard');
    const more = screen.getByRole('button', { name: 'More' });
    fireEvent.click(more);
    fireEvent.click(more);
    type('AAPL');
    await wait(1000);
    expect(calls('ActivityActions')).toHaveLength(2);
    const signal = calls('ActivityActions')[1]?.signal;
    expect(signal?.aborted).toBe(false);
    unmount();
    expect(signal?.aborted).toBe(true);
  });
});
