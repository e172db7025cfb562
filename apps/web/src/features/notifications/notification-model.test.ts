import { NOTIFICATION_EVENTS } from '@router/shared';
import { describe, expect, it, vi } from 'vitest';
import {
  DELIVERY_REFRESH_MS,
  DELIVERY_REFRESH_SLOW_MS,
  deliveryRefreshMs,
  deliveryState,
  parseMetadata,
  saveNotifications,
  storedEvents,
} from './notification-model.ts';

const existing = [
  { key: 'n-email', type: 2, isEnabled: true, metadata: '{"email":"old@example.com"}' },
  { key: 'n-hook', type: 1, isEnabled: true, metadata: '{"url":"https://example.com/a"}' },
];

function calls(fail?: string) {
  const log: string[] = [];
  return {
    log,
    create: vi.fn(async (type: number, metadata: string) => {
      log.push(`create ${type} ${metadata}`);
      if (fail === 'create') throw new Error('[GraphQL] Live accounts only');
    }),
    update: vi.fn(async (key: string, metadata: string) => {
      log.push(`update ${key} ${metadata}`);
      if (fail === 'update') throw new Error('');
    }),
    remove: vi.fn(async (key: string) => {
      log.push(`delete ${key}`);
    }),
  };
}

describe('notifications save (SPEC §4)', () => {
  it('creates toggled-on types without a setting', async () => {
    const c = calls();
    const result = await saveNotifications(
      [],
      [
        { type: 2, enabled: true, metadata: { email: 'jo@example.com' } },
        { type: 1, enabled: false, metadata: { url: '' } },
      ],
      c,
    );
    expect(result).toBeNull();
    expect(c.log).toEqual(['create 2 {"email":"jo@example.com"}']);
  });

  it('updates changed ones, deletes toggled-off ones, leaves unchanged ones', async () => {
    const c = calls();
    await saveNotifications(
      existing,
      [
        { type: 2, enabled: true, metadata: { email: 'new@example.com' } },
        { type: 1, enabled: false, metadata: { url: 'https://example.com/a' } },
      ],
      c,
    );
    expect(c.log).toEqual(['update n-email {"email":"new@example.com"}', 'delete n-hook']);
    const unchanged = calls();
    await saveNotifications(existing, [{ type: 2, enabled: true, metadata: { email: 'old@example.com' } }], unchanged);
    expect(unchanged.log).toEqual([]);
  });

  it("stops at the first error with its message, or 'Error'", async () => {
    const c = calls('create');
    const result = await saveNotifications(
      [],
      [
        { type: 2, enabled: true, metadata: { email: 'jo@example.com' } },
        { type: 1, enabled: true, metadata: { url: 'https://example.com/b' } },
      ],
      c,
    );
    expect(result).toBe('Live accounts only');
    expect(c.create).toHaveBeenCalledTimes(1);
    const u = calls('update');
    expect(
      await saveNotifications(existing, [{ type: 2, enabled: true, metadata: { email: 'x@example.com' } }], u),
    ).toBe('Error');
  });

  it('compares settings by meaning, not by the JSON text the server answered', async () => {
    const c = calls();
    const stored = [
      {
        key: 'n-hook',
        type: 1,
        isEnabled: true,
        metadata: '{"events": ["order.placed"], "url": "https://example.com/a"}',
      },
    ];
    await saveNotifications(
      stored,
      [{ type: 1, enabled: true, metadata: { url: 'https://example.com/a', events: ['order.placed'] } }],
      c,
    );
    expect(c.log).toEqual([]);
    await saveNotifications(stored, [{ type: 1, enabled: true, metadata: { url: 'https://example.com/a' } }], c);
    expect(c.log).toEqual(['update n-hook {"url":"https://example.com/a"}']);
  });

  it('stores no event list when all are chosen', () => {
    expect(storedEvents([...NOTIFICATION_EVENTS].reverse())).toBeUndefined();
    expect(storedEvents(['credits.low', 'order.placed'])).toEqual(['order.placed', 'credits.low']);
  });

  it('names delivery states', () => {
    expect(deliveryState({ status: 'pending', attempts: 0, inDigest: false }).label).toBe('Waiting');
    expect(deliveryState({ status: 'pending', attempts: 2, inDigest: false }).label).toBe('Retrying');
    expect(deliveryState({ status: 'delivered', attempts: 1, inDigest: true }).label).toBe('Delivered (digest)');
    expect(deliveryState({ status: 'failed', attempts: 7, inDigest: false }).tone).toBe('danger');
  });

  it('asks the delivery log again fast only while a delivery is due', () => {
    const now = 1_000_000_000;
    const pending = (nextAttemptAt: number | null) => ({ status: 'pending', nextAttemptAt });
    expect(deliveryRefreshMs([{ status: 'delivered', nextAttemptAt: null }], now)).toBeNull();
    expect(deliveryRefreshMs([pending(null)], now)).toBe(DELIVERY_REFRESH_MS);
    expect(deliveryRefreshMs([pending(now - 5_000)], now)).toBe(DELIVERY_REFRESH_MS);
    expect(deliveryRefreshMs([pending(now + 20_000)], now)).toBe(20_000);
    expect(deliveryRefreshMs([pending(now + 36_000_000), pending(now + 9_000)], now)).toBe(9_000);
    expect(deliveryRefreshMs([pending(now + 36_000_000)], now)).toBe(DELIVERY_REFRESH_SLOW_MS);
    // Long overdue: the worker is down or late, not worth a request every two seconds.
    expect(deliveryRefreshMs([pending(now - 3_600_000)], now)).toBe(DELIVERY_REFRESH_SLOW_MS);
  });

  it('parses metadata leniently', () => {
    expect(parseMetadata('{"email":"a@b.co"}')).toEqual({ email: 'a@b.co' });
    expect(parseMetadata('{"url":"https://x.y"}')).toEqual({ url: 'https://x.y' });
    expect(parseMetadata('nope')).toEqual({});
    expect(parseMetadata('{"email":3}')).toEqual({});
    expect(parseMetadata('{"url":"https://x.y","events":["order.placed","nope"]}')).toEqual({
      url: 'https://x.y',
      events: ['order.placed'],
    });
  });
});
