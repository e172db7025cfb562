// Retry waits and the email digest rule.
import { describe, expect, it } from 'vitest';
import { DIGEST_THRESHOLD, DIGEST_WINDOW_MS, digestDecision, retryDelay, singlesFirst } from './delivery-rules.ts';

const DEFAULT = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000];

describe('retryDelay', () => {
  it('waits 5 s, 5 min, 30 min, 2 h, 5 h, 10 h after the 1st to 6th failure, then gives up', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((attempts) => retryDelay(DEFAULT, attempts))).toEqual([...DEFAULT, null]);
  });
});

describe('digestDecision', () => {
  const now = new Date('2025-03-14T12:00:00Z');
  const ago = (ms: number) => new Date(now.getTime() - ms);
  const state = (arrived: number, oldestPendingAgoMs: number | null, lastDigestAgoMs: number | null = null) => ({
    userId: 1,
    email: 'desk@example.com',
    type: 'order.rejected',
    arrived,
    earlier: 0,
    waiting: 0,
    oldestPendingAt: oldestPendingAgoMs === null ? null : ago(oldestPendingAgoMs),
    lastDigestAt: lastDigestAgoMs === null ? null : ago(lastDigestAgoMs),
    now,
  });

  it(`sends a mail each for up to ${DIGEST_THRESHOLD} events a minute`, () => {
    expect(digestDecision(state(DIGEST_THRESHOLD, 0), 1)).toEqual({ kind: 'single' });
    expect(digestDecision(state(2, 0), 2)).toEqual({ kind: 'single' });
  });

  it('holds a flood until a minute after the oldest waiting event, then sends one digest', () => {
    expect(digestDecision(state(DIGEST_THRESHOLD + 1, 1_000), 1)).toEqual({
      kind: 'wait',
      until: new Date(now.getTime() - 1_000 + DIGEST_WINDOW_MS),
    });
    expect(digestDecision(state(3, 1_000), DIGEST_THRESHOLD + 1)).toMatchObject({ kind: 'wait' });
    expect(digestDecision(state(40, DIGEST_WINDOW_MS), 40)).toEqual({ kind: 'digest' });
  });

  it('sends the mails that waited for a digest as one, however few they are by then', () => {
    expect(digestDecision(state(0, DIGEST_WINDOW_MS), 3)).toEqual({ kind: 'single' });
    expect(digestDecision(state(0, DIGEST_WINDOW_MS), 3, true)).toEqual({ kind: 'digest' });
  });

  it('sends at most one digest a minute while the flood goes on', () => {
    expect(digestDecision(state(30, DIGEST_WINDOW_MS + 5_000, 20_000), 12)).toEqual({
      kind: 'wait',
      until: new Date(now.getTime() - 20_000 + DIGEST_WINDOW_MS),
    });
    expect(digestDecision(state(30, DIGEST_WINDOW_MS + 5_000, DIGEST_WINDOW_MS), 12)).toEqual({ kind: 'digest' });
  });
});

describe('singlesFirst', () => {
  it(`mails the first ${DIGEST_THRESHOLD} of a minute one by one, however many come at once; not those that waited for a digest`, () => {
    expect(singlesFirst(0, false)).toBe(DIGEST_THRESHOLD);
    expect(singlesFirst(3, false)).toBe(DIGEST_THRESHOLD - 3);
    expect(singlesFirst(DIGEST_THRESHOLD + 4, false)).toBe(0);
    expect(singlesFirst(0, true)).toBe(0);
  });
});
