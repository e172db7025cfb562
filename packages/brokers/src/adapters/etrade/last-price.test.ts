// lastPrice against the E*TRADE fake: the market quote of the product an order would name, the
// call OAuth 1.0a signed as every other; an unknown symbol refused in E*TRADE's words.
import { describe, expect, it } from 'vitest';
import { brokerFailure } from '../../core/expect-failure.ts';
import { quoteSymbol } from './quote.ts';
import { ACCOUNT, useEtradeFake } from './test-support.ts';

// AAPL at 175 and the SPY 2024-01-19 450 call at 3.2 in the fake's book.
const CALL = 'SPY240119C00450000';
const t = useEtradeFake({ quotes: { AAPL: 175, 'SPY 2024-1-19 CALL 450': 3.2 } });

describe('E*TRADE: lastPrice', () => {
  it('quotes the last trade of a stock and of an option, signed with the session’s token', async () => {
    const session = await t.connect();
    t.fake.requests.length = 0;
    expect(await t.broker.lastPrice(t.ctx, session, ACCOUNT, 'aapl', 'stock')).toBe(175);
    expect(await t.broker.lastPrice(t.ctx, session, ACCOUNT, CALL, 'option')).toBe(3.2);
    expect(t.fake.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      'GET /v1/market/quote/AAPL.json?detailFlag=ALL',
      'GET /v1/market/quote/SPY:2024:1:19:CALL:450.json?detailFlag=ALL',
    ]);
    expect(t.fake.requests[0]?.headers.authorization).toMatch(/oauth_token="[^"]+".*oauth_signature="/);
  });

  it('refuses a symbol E*TRADE does not know in its words, and an account outside the connection', async () => {
    const session = await t.connect();
    const unknown = await brokerFailure(t.broker.lastPrice(t.ctx, session, ACCOUNT, 'ZZ9', 'stock'));
    expect([unknown.kind, unknown.message]).toEqual(['InvalidOrder', 'E*TRADE: ZZ9 is not a valid symbol']);
    const other = await brokerFailure(t.broker.lastPrice(t.ctx, session, 'not-ours', 'AAPL', 'stock'));
    expect(other.kind).toBe('InvalidOrder');
    const notOption = await brokerFailure(t.broker.lastPrice(t.ctx, session, ACCOUNT, 'AAPL', 'option'));
    expect(notOption.message).toBe('E*TRADE: AAPL is not an option symbol');
  });

  it('a 403 on the quote (no market data for the user) refuses that quote, not the connection', async () => {
    const session = await t.connect();
    t.fake.inject({
      method: 'GET',
      path: '/v1/market/quote/AAPL.json',
      status: 403,
      body: { Error: { code: 1037, message: 'You are not entitled to real-time quotes.' } },
    });
    const refused = await brokerFailure(t.broker.lastPrice(t.ctx, session, ACCOUNT, 'AAPL', 'stock'));
    expect([refused.kind, refused.message]).toEqual([
      'InvalidOrder',
      'E*TRADE: You are not entitled to real-time quotes.',
    ]);
  });

  it('the fake checks the signature and the request, as for every other call', async () => {
    const session = await t.connect();
    const forged = { ...session, secrets: { ...session.secrets, tokenSecret: 'not-the-secret' } };
    expect((await t.signed(forged, 'GET', '/v1/market/quote/AAPL.json')).status).toBe(401);
    expect((await t.signed(session, 'GET', '/v1/market/quote/AAPL.json?detailFlag=NOPE')).status).toBe(400);
    const ok = await t.signed(session, 'GET', '/v1/market/quote/AAPL,ZZ9.json');
    expect(await ok.json()).toMatchObject({
      QuoteResponse: {
        QuoteData: [{ All: { lastTrade: 175 }, Product: { symbol: 'AAPL', securityType: 'EQ' } }],
        Messages: { Message: [{ description: 'ZZ9 is not a valid symbol', code: 1002 }] },
      },
    });
  });

  it('names an option as the quote API does', () => {
    expect(
      quoteSymbol({
        securityType: 'OPTN',
        symbol: 'GOOG',
        expiryYear: 2015,
        expiryMonth: 4,
        expiryDay: 17,
        callPut: 'PUT',
        strikePrice: 540,
      }),
    ).toBe('GOOG:2015:4:17:PUT:540');
  });
});
