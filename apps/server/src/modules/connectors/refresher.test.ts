// The background refresher's schedule: one pass a minute, a tick during a slow pass skipped, so
// passes never queue up behind it; stopping waits for the pass in progress.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Services } from '../../services.ts';
import { type RefreshPass, startConnectorRefresher } from './refresher.ts';

const services = { log: { info: vi.fn(), error: vi.fn() } } as unknown as Services;

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('startConnectorRefresher', () => {
  it('skips the ticks that come while a pass still runs, leaving no backlog of passes', async () => {
    let release: (pass: RefreshPass) => void = () => {};
    const runPass = vi.fn(
      () =>
        new Promise<RefreshPass>((resolve) => {
          release = resolve;
        }),
    );
    const stop = startConnectorRefresher(services, runPass);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(runPass).toHaveBeenCalledTimes(1);
    // Three more minutes while the first pass hangs on a slow broker.
    await vi.advanceTimersByTimeAsync(3 * 60_000);
    expect(runPass).toHaveBeenCalledTimes(1);
    release({ refreshed: 1, failed: 0 });
    await vi.advanceTimersByTimeAsync(0);
    // Not three passes back to back: the next one at the next tick.
    expect(runPass).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(runPass).toHaveBeenCalledTimes(2);
    const stopped = stop();
    release({ refreshed: 0, failed: 0 });
    await stopped;
    await vi.advanceTimersByTimeAsync(5 * 60_000);
    expect(runPass).toHaveBeenCalledTimes(2);
  });
});
