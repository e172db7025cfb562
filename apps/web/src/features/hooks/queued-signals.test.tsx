import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { formatDateTime } from '../../lib/format.ts';
import type { GraphQLPayload } from '../../test/fake-server.ts';
import { deferred, renderWithClient } from '../../test/render-with-client.tsx';
import { LiveProvider } from '../live/live-provider.tsx';
import { QueuedSignals } from './queued-signals.tsx';

const PLACE_AT = Date.UTC(2026, 10, 30, 14, 30);
const row = (id: string, hookKey: string, status = 'queued') => ({
  id,
  hookKey,
  status,
  placeAt: PLACE_AT,
  order: JSON.stringify({ symbol: 'AAPL', action: 'buy', quantity: 2 }),
});

describe('queued signals of a webhook', () => {
  it('lists the webhook’s waiting signals with when they are placed, and cancels one', async () => {
    let rows = [row('q1', 'h1'), row('q2', 'h2'), row('q3', 'h1', 'placed')];
    const { calls } = renderWithClient(<QueuedSignals hookKey="h1" />, {
      QueuedSignals: () => ({ data: { queuedSignals: rows } }),
      QueuedSignalCancel: (request) => {
        rows = rows.map((r) => (r.id === request.variables.id ? { ...r, status: 'cancelled' } : r));
        return { data: { queuedSignalCancel: { id: request.variables.id, status: 'cancelled' } } };
      },
    });
    const list = await screen.findByRole('region', { name: 'Queued signals' });
    // SPEC §9: en-US, 24-hour, as every other date-time of the screens (not the browser's own format).
    expect(list.textContent).toContain(`buy 2 AAPL, placed at ${formatDateTime(PLACE_AT)}`);
    expect(screen.getAllByRole('button', { name: 'Cancel' })).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Queued signals' })).toBeNull());
    expect(calls('QueuedSignalCancel')[0]?.variables).toEqual({ id: 'q1' });
  });

  it('shows why a cancel failed', async () => {
    renderWithClient(<QueuedSignals hookKey="h1" />, {
      QueuedSignals: () => ({ data: { queuedSignals: [row('q1', 'h1')] } }),
      QueuedSignalCancel: () => ({
        data: null,
        errors: [
          {
            message: 'Queued signal cannot be cancelled: it is being placed now',
            extensions: { code: 'BAD_USER_INPUT' },
          },
        ],
      }),
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Queued signal cannot be cancelled: it is being placed now',
    );
  });
});

describe('cancelling a queued signal twice', () => {
  it('sends one cancel for a double click (the second would answer "not found" for a cancelled signal)', async () => {
    let rows = [row('q1', 'h1')];
    const answer = deferred<GraphQLPayload>();
    const { calls } = renderWithClient(<QueuedSignals hookKey="h1" />, {
      QueuedSignals: () => ({ data: { queuedSignals: rows } }),
      QueuedSignalCancel: () => answer.promise,
    });
    const cancel = await screen.findByRole('button', { name: 'Cancel' });
    fireEvent.click(cancel);
    fireEvent.click(cancel);
    await waitFor(() => expect(calls('QueuedSignalCancel')).toHaveLength(1));
    rows = rows.map((r) => ({ ...r, status: 'cancelled' }));
    answer.resolve({ data: { queuedSignalCancel: { id: 'q1', status: 'cancelled' } } });
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Queued signals' })).toBeNull());
    expect(calls('QueuedSignalCancel')).toHaveLength(1);
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

describe('queued signal quantities', () => {
  it('groups a quantity as the trade lines do (en-US, SPEC §9), and shows an expression as written', async () => {
    const order = (quantity: number | string) => JSON.stringify({ symbol: 'BTCUSD', action: 'sell', quantity });
    renderWithClient(<QueuedSignals hookKey="h1" />, {
      QueuedSignals: () => ({
        data: {
          queuedSignals: [
            { ...row('q1', 'h1'), order: order(12500) },
            { ...row('q2', 'h1'), order: order(0.0015) },
            { ...row('q3', 'h1'), order: order('{{qty}}*2') },
          ],
        },
      }),
    });
    const list = await screen.findByRole('region', { name: 'Queued signals' });
    expect(list.textContent).toContain('sell 12,500 BTCUSD, placed at');
    expect(list.textContent).toContain('sell 0.0015 BTCUSD, placed at');
    expect(list.textContent).toContain('sell {{qty}}*2 BTCUSD, placed at');
  });
});

describe('queued signals when the list cannot be reloaded', () => {
  it('keeps showing the signals still waiting (they will be placed) after a cancel whose reload fails', async () => {
    let down = false;
    const { calls } = renderWithClient(<QueuedSignals hookKey="h1" />, {
      QueuedSignals: () =>
        down
          ? { data: null, errors: [{ message: 'Service unavailable', extensions: { code: 'INTERNAL_SERVER_ERROR' } }] }
          : { data: { queuedSignals: [row('q1', 'h1'), { ...row('q2', 'h1'), order: '{"symbol":"MSFT"}' }] } },
      QueuedSignalCancel: (request) => {
        down = true;
        return { data: { queuedSignalCancel: { id: request.variables.id, status: 'cancelled' } } };
      },
    });
    const list = await screen.findByRole('region', { name: 'Queued signals' });
    expect(screen.getAllByRole('button', { name: 'Cancel' })).toHaveLength(2);
    fireEvent.click(screen.getAllByRole('button', { name: 'Cancel' })[0] as HTMLElement);
    await waitFor(() => expect(calls('QueuedSignals').length).toBeGreaterThan(1));
    await waitFor(() => expect(screen.getAllByRole('button', { name: 'Cancel' })).toHaveLength(1));
    await act(async () => {});
    await act(async () => {});
    expect(list.isConnected).toBe(true);
    expect(screen.getByRole('region', { name: 'Queued signals' }).textContent).toContain('MSFT');
    expect(screen.getAllByRole('button', { name: 'Cancel' })).toHaveLength(1);
  });
});

describe('queued signals placed meanwhile', () => {
  /**
   * A waiting signal on a screen with its live stream; the signal is then placed, and the stream
   * says `kind`. Returns the screen's calls once the list no longer offers it.
   */
  async function placedThenTold(kind: string) {
    let rows = [row('q1', 'h1')];
    let tell: (payload: GraphQLPayload) => void = () => {};
    const { calls } = renderWithClient(
      <LiveProvider>
        <QueuedSignals hookKey="h1" />
      </LiveProvider>,
      {
        QueuedSignals: () => ({ data: { queuedSignals: rows } }),
        Live: () =>
          new Promise<GraphQLPayload>((resolve) => {
            tell = resolve;
          }),
      },
    );
    expect(await screen.findByRole('button', { name: 'Cancel' })).toBeTruthy();
    await waitFor(() => expect(calls('Live')).toHaveLength(1));
    rows = [row('q1', 'h1', 'placed')];
    await act(async () => tell({ data: { live: { kind, at: 1 } } }));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Queued signals' })).toBeNull());
    return calls;
  }

  it('are no longer offered to cancel once the server tells of the new activity', async () => {
    // The trading window opened: the signal was placed, its placement logged.
    await placedThenTold('activity');
  });

  it('are no longer offered once the stream is live, when placed after the list loaded but before the stream began', async () => {
    // Placed while the page's first stream was on its way: the stream will not tell of it.
    const calls = await placedThenTold('ready');
    expect(calls('QueuedSignals')).toHaveLength(2);
  });
});
