// lastPrice against the FOREX.com fake: the mid of the last bid and ask ticks of the market an
// order would use (a webhook's maxNotional values market orders with it); unknown pairs refused.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ACCOUNT, connected, failure } from './test-support.ts';

let t: Awaited<ReturnType<typeof connected>>;
beforeAll(async () => {
  t = await connected();
});
afterAll(() => t.fake.close());

describe('FOREX.com: lastPrice', () => {
  it('quotes the mid of the last bid and ask ticks of the pair’s market, signed with the session', async () => {
    t.fake.requests.length = 0;
    // The fake's EUR/USD: bid 1.08495, offer 1.08512.
    expect(await t.broker.lastPrice(t.ctx, t.session, ACCOUNT, 'EURUSD', 'forex')).toBeCloseTo(1.085035, 9);
    const ticks = t.fake.requests.filter((r) => r.url.startsWith('/market/401484347/tickhistory'));
    expect(ticks.map((r) => new URL(r.url, t.fake.url).searchParams.get('priceType')).sort()).toEqual(['ASK', 'BID']);
    expect(await t.broker.lastPrice(t.ctx, t.session, ACCOUNT, 'XAU/USD', 'forex')).toBeCloseTo(2330.3, 9);
  });

  it('refuses a pair the account has no market for, and a symbol that is no pair', async () => {
    const unknown = await failure(t.broker.lastPrice(t.ctx, t.session, ACCOUNT, 'EUR/ZAR', 'forex'));
    expect([unknown.kind, unknown.message]).toEqual(['InvalidOrder', 'FOREX.com: no market EUR/ZAR for this account']);
    const notPair = await failure(t.broker.lastPrice(t.ctx, t.session, ACCOUNT, 'AAPL', 'forex'));
    expect(notPair.message).toBe('FOREX.com: AAPL is not a currency or metal pair');
  });

  it('a 403 on the market’s prices (no price data for this login) refuses them, not the connection', async () => {
    const forbidden = { HttpStatus: 403, ErrorMessage: 'Forbidden', ErrorCode: 403 };
    // Both ticks (bid and ask, asked together) are refused, so no answer is left for a later call.
    const forbid = () => {
      for (const _ of ['BID', 'ASK'])
        t.fake.inject({ method: 'GET', path: '/market/401484347/tickhistory', status: 403, body: forbidden });
    };
    const refused = ['InvalidOrder', 'FOREX.com: market data refused (Forbidden); nothing was placed'];
    const ticks = () => t.fake.requests.filter((r) => r.url.startsWith('/market/401484347/tickhistory')).length;
    const before = ticks();
    forbid();
    const quote = await failure(t.broker.lastPrice(t.ctx, t.session, ACCOUNT, 'EURUSD', 'forex'));
    expect([quote.kind, quote.message]).toEqual(refused);
    forbid();
    const order = await failure(t.place({ symbol: 'EURUSD', action: 'buy', quantity: 1000 }));
    expect([order.kind, order.message]).toEqual(refused);
    expect(t.posted('/order/newtradeorder')).toHaveLength(0);
    // The tick asked alongside the refused one has taken its refusal too before the next case.
    await vi.waitFor(() => expect(ticks()).toBe(before + 4), { timeout: 4_000 });
  });

  it('a 403 on the market search (/cfd/markets) refuses that order or quote, not the connection', async () => {
    // A connection of its own: the shared one may have the pair's market cached.
    const own = await connected();
    try {
      const forbidden = { HttpStatus: 403, ErrorMessage: 'Forbidden', ErrorCode: 403 };
      const refused = ['InvalidOrder', 'FOREX.com: market data refused (Forbidden); nothing was placed'];
      // Twice: a read refused as an authentication failure is asked once more with a new session.
      const forbid = () => {
        for (const _ of [1, 2]) own.fake.inject({ method: 'GET', path: '/cfd/markets', status: 403, body: forbidden });
      };
      forbid();
      const quote = await failure(own.broker.lastPrice(own.ctx, own.session, ACCOUNT, 'EURUSD', 'forex'));
      expect([quote.kind, quote.message]).toEqual(refused);
      own.fake.clearInjections();
      forbid();
      const order = await failure(own.place({ symbol: 'EURUSD', action: 'buy', quantity: 1000 }));
      expect([order.kind, order.message]).toEqual(refused);
      expect(own.posted('/order/newtradeorder')).toHaveLength(0);
    } finally {
      await own.fake.close();
    }
  });

  it('refuses an account that is not the connection’s, and an invalid session as FOREX.com words it', async () => {
    const other = await failure(t.broker.lastPrice(t.ctx, t.session, '999', 'EURUSD', 'forex'));
    expect(other.kind).toBe('InvalidOrder');
    const forged = { ...t.session, secrets: { ...t.session.secrets, session: 'forged', password: 'not-it' } };
    const bad = await failure(t.broker.lastPrice(t.ctx, forged, ACCOUNT, 'GBPUSD', 'forex'));
    expect(bad.kind).toBe('AuthenticationError');
  });
});
