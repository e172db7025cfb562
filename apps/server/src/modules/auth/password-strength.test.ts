// The estimate runs in a worker thread; each caller gets the answer to its own password.
import { PASSWORD_MIN_SCORE } from '@router/shared';
import { describe, expect, it, vi } from 'vitest';
import { estimatePassword } from './password-strength.ts';

describe('estimatePassword', () => {
  it('scores weak and strong passwords apart, each caller its own, several at once', async () => {
    const [empty, weak, strong, weakAgain] = await Promise.all([
      estimatePassword(''),
      estimatePassword('password1'),
      estimatePassword('correct horse battery staple orbit'),
      estimatePassword('qwerty'),
    ]);
    expect(empty).toBe(0);
    expect(weak).toBeLessThanOrEqual(PASSWORD_MIN_SCORE);
    expect(weakAgain).toBeLessThanOrEqual(PASSWORD_MIN_SCORE);
    expect(strong).toBeGreaterThan(PASSWORD_MIN_SCORE);
    expect(weak).not.toBe(weakAgain);
  });

  it('ends the thread after 10 quiet seconds and answers what is asked meanwhile from a new one', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const first = await estimatePassword('password1');
      // The idle timer fires: the thread is told to end, and its exit comes later…
      vi.advanceTimersByTime(10_000);
      // …while this estimate already went to its successor, which must answer it.
      expect(await estimatePassword('password1')).toBe(first);
    } finally {
      vi.useRealTimers();
    }
  });
});
