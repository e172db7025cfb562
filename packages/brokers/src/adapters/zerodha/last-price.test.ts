// lastPrice against the Kite fake: last_price of GET /quote/ltp for the instrument an order would
// name (NSE by default, NFO for derivatives, an EXCHANGE: prefix kept); unknown ones refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT, type Connected, connected, expectFailure, sentSince } from './test-support.ts';

let c: Connected;
beforeAll(async () => {
  c = await connected();
});
afterAll(() => c.fake.close());

const lastPrice = (symbol: string, cls: 'stock' | 'future' | 'option' = 'stock', account = ACCOUNT) =>
  c.broker.lastPrice(c.ctx, c.session, account, symbol, cls);

describe('Zerodha: lastPrice', () => {
  it('reads last_price of the order’s instrument from /quote/ltp, signed with the session’s token', async () => {
    const from = c.fake.requests.length;
    expect(await lastPrice('sbin')).toBe(800);
    expect(await lastPrice('NIFTY27JUNFUT', 'future')).toBe(24600);
    expect(await lastPrice('MCX:GOLDPETAL26JULFUT', 'future')).toBe(9500);
    const sent = c.fake.requests.slice(from);
    expect(sent.map((r) => new URL(r.url, c.fake.baseUrl).searchParams.getAll('i'))).toEqual([
      ['NSE:SBIN'],
      ['NFO:NIFTY27JUNFUT'],
      ['MCX:GOLDPETAL26JULFUT'],
    ]);
    expect(sentSince(c.fake, from).every((r) => r.method === 'GET')).toBe(true);
    expect(sent[0]?.headers.authorization).toBe(`token ${c.session.secrets.apiKey}:${c.session.secrets.accessToken}`);
  });

  it('asks for the order’s own exchange, which the order language keeps apart from the symbol', async () => {
    // `BSE:INFY` in a signal becomes { symbol: 'INFY', exchange: 'BSE' }: the BSE quote, not NSE's.
    const from = c.fake.requests.length;
    expect(await c.broker.lastPrice(c.ctx, c.session, ACCOUNT, 'INFY', 'stock', 'BSE')).toBe(1520);
    const sent = c.fake.requests.slice(from);
    expect(sent.map((r) => new URL(r.url, c.fake.baseUrl).searchParams.getAll('i'))).toEqual([['BSE:INFY']]);
  });

  it('refuses an instrument Kite leaves out of its answer, a symbol that is not Kite’s, another account', async () => {
    const unknown = await expectFailure(lastPrice('NIFTY27JUN', 'future'));
    expect([unknown.kind, unknown.message]).toEqual([
      'InvalidOrder',
      'Zerodha: Kite quotes no instrument NFO:NIFTY27JUN',
    ]);
    const occ = await expectFailure(lastPrice('SPY240119C00450000', 'option'));
    expect(occ.message).toMatch(/^Zerodha: .*not in OCC form$/);
    expect((await expectFailure(lastPrice('SBIN', 'stock', 'OTHER1'))).kind).toBe('InvalidOrder');
  });

  it('the fake answers as Kite: unknown instruments left out, no `i` refused, a bad token 403', async () => {
    const headers = {
      'x-kite-version': '3',
      authorization: `token ${c.session.secrets.apiKey}:${c.session.secrets.accessToken}`,
    };
    const both = await fetch(`${c.fake.baseUrl}/quote/ltp?i=NSE:INFY&i=NFO:NOPE`, { headers });
    expect(await both.json()).toEqual({
      status: 'success',
      data: { 'NSE:INFY': { instrument_token: 408065, last_price: 1520 } },
    });
    expect((await fetch(`${c.fake.baseUrl}/quote/ltp`, { headers })).status).toBe(400);
    const forged = { ...headers, authorization: `token ${c.session.secrets.apiKey}:forged` };
    expect((await fetch(`${c.fake.baseUrl}/quote/ltp?i=NSE:INFY`, { headers: forged })).status).toBe(403);
  });
});
