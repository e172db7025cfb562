import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { fixture } from '../../test/fake-server.ts';
import { renderWithClient } from '../../test/render-with-client.tsx';
import { page } from './activity-fixtures.ts';
import { type ActionRow, useActivity } from './use-activity.ts';

function Probe() {
  const activity = useActivity('');
  return (
    <div>
      <button type="button" onClick={activity.refresh}>
        refresh
      </button>
      <button type="button" onClick={activity.more}>
        more
      </button>
      <output data-testid="ids">{activity.actions.map((action) => action.id).join(',')}</output>
      <output data-testid="metadata">
        {activity.actions.map((action) => `${action.id}=${action.metadata}`).join(' ')}
      </output>
      <output data-testid="loading">{String(activity.loading)}</output>
      <output data-testid="has-more">{String(activity.hasMore)}</output>
    </div>
  );
}

const ids = () => (screen.getByTestId('ids').textContent ?? '').split(',').filter(Boolean).map(Number);
/** What entry `id` reads now (the fixture puts its result in its metadata). */
const shown = (id: number) =>
  (screen.getByTestId('metadata').textContent ?? '')
    .split(' ')
    .find((entry) => entry.startsWith(`${id}=`))
    ?.slice(`${id}=`.length);
const idle = () => vi.waitFor(() => expect(screen.getByTestId('loading').textContent).toBe('false'));
const range = (from: number, count: number) => Array.from({ length: count }, (_, index) => from + index);

describe('useActivity live refresh', () => {
  it('leaves no gap when more new entries arrived than a page holds', async () => {
    // The log newest first: ids grow older (page()'s createdAt falls with the id).
    let newest = 101;
    renderWithClient(<Probe />, {
      ActivityActions: fixture(({ variables }) => {
        const before = variables.createdAtFrom as number | undefined;
        const rows = page(newest, 300 - newest).filter((row) => before === undefined || row.createdAt < before);
        return { data: { actions: rows.slice(0, 20) } };
      }),
    });
    await vi.waitFor(() => expect(ids()).toEqual(range(101, 20)));
    // 25 entries arrive at once (one live event): the refreshed first page holds 20 of them.
    newest = 76;
    fireEvent.click(screen.getByText('refresh'));
    await vi.waitFor(() => expect(ids()[0]).toBe(76));
    await idle();
    // Whatever is shown is the log without holes, and 'More' goes on from it.
    expect(ids()).toEqual(range(76, ids().length));
    fireEvent.click(screen.getByText('more'));
    await vi.waitFor(() => expect(ids().length).toBeGreaterThan(20));
    await idle();
    expect(ids()).toEqual(range(76, ids().length));
  });
});

describe('useActivity after an empty first load', () => {
  it("offers 'More' when the first entries arrive live as a full page", async () => {
    let newest = 300;
    renderWithClient(<Probe />, {
      ActivityActions: fixture(({ variables }) => {
        const before = variables.createdAtFrom as number | undefined;
        const rows = page(newest, 300 - newest).filter((row) => before === undefined || row.createdAt < before);
        return { data: { actions: rows.slice(0, 20) } };
      }),
    });
    await idle();
    expect(ids()).toEqual([]);
    newest = 270;
    fireEvent.click(screen.getByText('refresh'));
    await vi.waitFor(() => expect(ids()).toEqual(range(270, 20)));
    await idle();
    expect(screen.getByTestId('has-more').textContent).toBe('true');
  });
});

describe('useActivity live refresh of entries shown by More', () => {
  it('brings an older shown entry up to date (a limit order that filled since)', async () => {
    // 60 entries, newest first; an entry's result is its signal's as it is now.
    const status = new Map<number, string>();
    const row = (id: number) => ({ ...page(id, 1)[0], metadata: status.get(id) ?? 'placed' }) as ActionRow;
    const all = range(1, 60);
    renderWithClient(<Probe />, {
      ActivityActions: fixture(({ variables }) => {
        const before = variables.createdAtFrom as number | undefined;
        const limit = (variables.limit as number | undefined) ?? 20;
        const rows = all.map(row).filter((action) => before === undefined || action.createdAt < before);
        return { data: { actions: rows.slice(0, limit) } };
      }),
    });
    await vi.waitFor(() => expect(ids()).toEqual(range(1, 20)));
    fireEvent.click(screen.getByText('more'));
    await vi.waitFor(() => expect(ids()).toEqual(range(1, 40)));
    await idle();
    // Entry 30 (on the second page) fills: the server tells of it, the list reloads.
    status.set(30, 'filled');
    fireEvent.click(screen.getByText('refresh'));
    await vi.waitFor(() => expect(shown(30)).toBe('filled'));
    await idle();
    expect(ids()).toEqual(range(1, 40));
    expect(screen.getByTestId('has-more').textContent).toBe('true');
  });
});
