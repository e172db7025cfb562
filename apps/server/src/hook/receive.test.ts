import { describe, expect, it } from 'vitest';
import type { SignalRuntime } from '../modules/signals/index.ts';
import { RateLimiter } from './rate-limit.ts';
import { type HookTransport, receiveSignal, tellTooLarge } from './receive.ts';

describe('the per-address hook limit', () => {
  it('counts an IPv6 /64 as one sender: fresh addresses in it bring no fresh burst', async () => {
    const h: HookTransport = {
      signals: {} as SignalRuntime,
      byHook: new RateLimiter<number>({ rate: 0, burst: 0 }),
      byAddress: new RateLimiter<string>({ rate: 0.001, burst: 3 }),
    };
    const post = (address: string) =>
      receiveSignal(h, { shortKey: '-', body: undefined, address, receivedAt: 0, hrStart: 0n });
    for (let i = 1; i <= 3; i++) expect((await post(`2001:db8:5:5::${i}`)).answer.statusCode).toBe(404);
    expect((await post('2001:db8:5:5:ffff::9')).answer.statusCode).toBe(429);
    expect((await post('2001:db8:5:6::1')).answer.statusCode).toBe(404);
    expect((await post('203.0.113.9')).answer.statusCode).toBe(404);
  });

  it("looks up no hook for bodies too large to read past the sender's limit (no key scanning through 413s)", async () => {
    const looked: string[] = [];
    const h: HookTransport = {
      signals: {
        hooks: {
          get: (shortKey: string) => {
            looked.push(shortKey);
            return null;
          },
        },
      } as unknown as SignalRuntime,
      byHook: new RateLimiter<number>({ rate: 0, burst: 0 }),
      byAddress: new RateLimiter<string>({ rate: 0.001, burst: 2 }),
    };
    const keys = ['AAAAAAAAAAAAAAAAAAAAAA', 'BBBBBBBBBBBBBBBBBBBBBB', 'CCCCCCCCCCCCCCCCCCCCCC'];
    for (const key of keys) await tellTooLarge(h, key, '203.0.113.9');
    expect(looked).toEqual(keys.slice(0, 2));
  });
});
