import type { Provider } from '@router/orders';
import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { connectableProviders, searchProviders } from './provider-search.ts';
import { useDebouncedValue } from './use-debounced-value.ts';

const provider = (name: string, title: string, status: Provider['status'] = 'active'): Provider => ({
  name,
  title,
  status,
  authentication: { type: 'credentials', credentials: [] },
  reference: {},
});

describe('provider grid (SPEC §2)', () => {
  const all = connectableProviders([
    provider('schwab', 'Schwab', 'beta'),
    provider('paper', 'Paper Trading'),
    provider('gone', 'Gone', 'disabled'),
    provider('alpaca', 'Alpaca'),
    provider('lightspeed', 'Lightspeed', 'unavailable'),
    provider('ameritrade', 'Ameritrade', 'unavailable'),
  ]);

  it('lists active providers, then beta, then unavailable ones, without disabled ones', () => {
    expect(all.map((p) => p.name)).toEqual(['alpaca', 'paper', 'schwab', 'ameritrade', 'lightspeed']);
  });

  it('searches titles case-insensitively', () => {
    expect(searchProviders(all, 'PAPER').map((p) => p.name)).toEqual(['paper']);
    expect(searchProviders(all, ' a ').map((p) => p.name)).toEqual(['alpaca', 'paper', 'schwab', 'ameritrade']);
    expect(searchProviders(all, 'sch').map((p) => p.name)).toEqual(['schwab']);
    expect(searchProviders(all, 'nothing')).toEqual([]);
    expect(searchProviders(all, '')).toHaveLength(5);
  });
});

describe('search debounce (SPEC §9: 555 ms)', () => {
  afterEach(() => vi.useRealTimers());

  it('applies the value 555 ms after the last change', () => {
    vi.useFakeTimers();
    const { result, rerender } = renderHook(({ value }) => useDebouncedValue(value, 555), {
      initialProps: { value: '' },
    });
    rerender({ value: 'sc' });
    act(() => vi.advanceTimersByTime(300));
    rerender({ value: 'sch' });
    act(() => vi.advanceTimersByTime(554));
    expect(result.current).toBe('');
    act(() => vi.advanceTimersByTime(1));
    expect(result.current).toBe('sch');
  });
});
