import { describe, expect, it } from 'vitest';
import type { HookEntry } from '../modules/hooks/index.ts';
import { InFlight } from '../modules/signals/in-flight.ts';
import type { SignalRuntime } from '../modules/signals/index.ts';
import { RateLimiter } from './rate-limit.ts';
import { type HookTransport, receiveSignal, tellTooLarge } from './receive.ts';

describe('the per-address hook limit', () => {
  /** Posts to an unknown key from `address`, under a limit of 3 per address (404 within it, 429 past it). */
  function addressLimited() {
    const h: HookTransport = {
      signals: {} as SignalRuntime,
      byHook: new RateLimiter<number>({ rate: 0, burst: 0 }),
      byAddress: new RateLimiter<string>({ rate: 0.001, burst: 3 }),
    };
    return (address: string) =>
      receiveSignal(h, { shortKey: '-', body: undefined, address, receivedAt: 0, hrStart: 0n });
  }

  it('counts an IPv6 /64 as one sender: fresh addresses in it bring no fresh burst', async () => {
    const post = addressLimited();
    for (let i = 1; i <= 3; i++) expect((await post(`2001:db8:5:5::${i}`)).answer.statusCode).toBe(404);
    expect((await post('2001:db8:5:5:ffff::9')).answer.statusCode).toBe(429);
    expect((await post('2001:db8:5:6::1')).answer.statusCode).toBe(404);
    expect((await post('203.0.113.9')).answer.statusCode).toBe(404);
  });

  it("never limits a platform's fixed address, shared by all its users: TradingView's nor TrendSpider's", async () => {
    const post = addressLimited();
    for (const address of ['52.89.214.238', '3.12.143.24', '::ffff:3.12.143.24']) {
      for (let i = 1; i <= 5; i++) expect((await post(address)).answer.statusCode, address).toBe(404);
    }
    for (let i = 1; i <= 3; i++) expect((await post('203.0.113.9')).answer.statusCode).toBe(404);
    expect((await post('203.0.113.9')).answer.statusCode).toBe(429);
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
        inFlight: new InFlight(),
      } as unknown as SignalRuntime,
      byHook: new RateLimiter<number>({ rate: 0, burst: 0 }),
      byAddress: new RateLimiter<string>({ rate: 0.001, burst: 2 }),
    };
    const keys = ['AAAAAAAAAAAAAAAAAAAAAA', 'BBBBBBBBBBBBBBBBBBBBBB', 'CCCCCCCCCCCCCCCCCCCCCC'];
    for (const key of keys) await tellTooLarge(h, key, '203.0.113.9');
    expect(looked).toEqual(keys.slice(0, 2));
  });

  it('a shutdown waits for a too-large body to be told to its trader (the hook looked up meanwhile)', async () => {
    let found: (entry: HookEntry) => void = () => {};
    const lookup = new Promise<HookEntry>((resolve) => {
      found = resolve;
    });
    const told: unknown[] = [];
    const inFlight = new InFlight();
    const h: HookTransport = {
      signals: {
        hooks: { get: () => lookup },
        inFlight,
        writer: { notify: (event: unknown) => void told.push(event) },
      } as unknown as SignalRuntime,
      byHook: new RateLimiter<number>({ rate: 0, burst: 0 }),
      byAddress: new RateLimiter<string>({ rate: 1, burst: 5 }),
    };
    void tellTooLarge(h, 'AAAAAAAAAAAAAAAAAAAAAA', '203.0.113.9');
    // The server stops while the lookup runs; it answers a moment later.
    setImmediate(() => found({ hookId: 1, userId: 1, isTest: false } as HookEntry));
    await inFlight.drain(10_000);
    expect(told).toMatchObject([{ type: 'signal.refused', userId: 1 }]);
  });
});
