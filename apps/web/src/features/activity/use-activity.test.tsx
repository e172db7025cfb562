import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { fixture } from '../../test/fake-server.ts';
import { renderWithClient } from '../../test/render-with-client.tsx';
import { page } from './activity-fixtures.ts';
import { useActivity } from './use-activity.ts';

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
      <output data-testid="loading">{String(activity.loading)}</output>
      <output data-testid="has-more">{String(activity.hasMore)}</output>
    </div>
  );
}

const ids = () => (screen.getByTestId('ids').textContent ?? '').split(',').filter(Boolean).map(Number);
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
