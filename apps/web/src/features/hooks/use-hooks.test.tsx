import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithClient } from '../../test/render-with-client.tsx';
import { startOfToday, useHooks } from './use-hooks.ts';

function Probe() {
  const { hooks, reload } = useHooks('c1');
  return (
    <button type="button" onClick={reload}>
      {hooks ? 'reload' : 'loading'}
    </button>
  );
}

afterEach(() => {
  vi.useRealTimers();
});

describe('calls today of the webhooks', () => {
  it('counts from the new midnight once the day changed while the page stayed open', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2026, 10, 26, 23, 50));
    const yesterday = startOfToday();
    const { calls } = renderWithClient(<Probe />, { Hooks: () => ({ data: { hooks: [] } }) });
    fireEvent.click(await screen.findByRole('button', { name: 'reload' }));
    await waitFor(() => expect(calls('Hooks')).toHaveLength(2));
    expect(calls('Hooks').map((call) => call.variables.since)).toEqual([yesterday, yesterday]);

    vi.setSystemTime(new Date(2026, 10, 27, 0, 10));
    fireEvent.click(screen.getByRole('button', { name: 'reload' }));
    await waitFor(() => expect(calls('Hooks')).toHaveLength(3));
    expect(calls('Hooks')[2]?.variables.since).toBe(new Date(2026, 10, 27).getTime());
  });
});
