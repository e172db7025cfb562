import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BrokerError } from './errors.ts';
import { retryReadAfterRateLimit } from './read-retry.ts';

const NOW = Date.parse('2026-03-02T15:00:00Z');
const limited = (retryAfter?: string) =>
  new BrokerError('RateLimited', 'Acme', 'rate limit reached', retryAfter ? { retryAfter } : {});

/** A send refused once with `first`, then answered 'ok'; counts its calls. */
function sender(first: BrokerError) {
  const calls = { count: 0 };
  const send = async () => {
    calls.count += 1;
    if (calls.count === 1) throw first;
    return 'ok';
  };
  return { calls, send };
}

beforeEach(() => {
  vi.useFakeTimers({ now: NOW });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('retryReadAfterRateLimit', () => {
  it('waits the seconds of Retry-After before the retry, not a fixed second', async () => {
    const { calls, send } = sender(limited('3'));
    const result = retryReadAfterRateLimit({ baseUrl: 'http://x', now: () => NOW }, 'read', send);
    await vi.advanceTimersByTimeAsync(1_500);
    expect(calls.count).toBe(1);
    await vi.advanceTimersByTimeAsync(1_500);
    expect(calls.count).toBe(2);
    await expect(result).resolves.toBe('ok');
  });

  it('waits until the HTTP date of Retry-After', async () => {
    const { calls, send } = sender(limited(new Date(NOW + 2_000).toUTCString()));
    const result = retryReadAfterRateLimit({ baseUrl: 'http://x', now: () => NOW }, 'read', send);
    await vi.advanceTimersByTimeAsync(1_500);
    expect(calls.count).toBe(1);
    await vi.advanceTimersByTimeAsync(500);
    expect(calls.count).toBe(2);
    await expect(result).resolves.toBe('ok');
  });

  it('reads a Retry-After that is neither seconds nor a date as none: one retry after a second', async () => {
    const { calls, send } = sender(limited('1.5'));
    const result = retryReadAfterRateLimit({ baseUrl: 'http://x', now: () => NOW }, 'read', send);
    await vi.advanceTimersByTimeAsync(500);
    expect(calls.count).toBe(1);
    await vi.advanceTimersByTimeAsync(500);
    expect(calls.count).toBe(2);
    await expect(result).resolves.toBe('ok');
  });

  it('does not retry when Retry-After asks for longer than the cap: the rate limit is the answer', async () => {
    const refusal = limited('600');
    const { calls, send } = sender(refusal);
    const result = retryReadAfterRateLimit({ baseUrl: 'http://x', now: () => NOW }, 'read', send).catch(
      (error: unknown) => error,
    );
    await vi.advanceTimersByTimeAsync(600_000);
    expect(await result).toBe(refusal);
    expect(calls.count).toBe(1);
  });

  it('without Retry-After retries once after a second; an order never', async () => {
    const read = sender(limited());
    const result = retryReadAfterRateLimit({ baseUrl: 'http://x' }, 'read', read.send);
    await vi.advanceTimersByTimeAsync(1_000);
    await expect(result).resolves.toBe('ok');
    expect(read.calls.count).toBe(2);
    const order = sender(limited('1'));
    await expect(retryReadAfterRateLimit({ baseUrl: 'http://x' }, 'order', order.send)).rejects.toThrow(
      'rate limit reached',
    );
    expect(order.calls.count).toBe(1);
  });
});
