// The FOREX.com protocol fake against City Index's own description and the published examples
// (broker-specs/forex): ciapi-meta.json is an unchanged extract of smd.json and schema.json, every
// published request passes the fake's route and DTO checks and is answered as published, and
// every answer the fake gives is of the DTO its route declares.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brokerSpecsPath } from '../../core/prism-mock.ts';
import { checkDto, matchRoute } from './ciapi-schema.ts';
import { type ForexFake, startForexFake } from './fake.ts';

const read = (file: string) => JSON.parse(readFileSync(brokerSpecsPath('forex', file), 'utf8'));
const published = (name: string) => read(`fixtures/${name}.json`);

/** A fake of its own, logged on as the published logon.request.json. */
async function startLoggedOn() {
  const started = await startForexFake({ login: { Password: '********' } });
  const logOn = published('logon.request').request;
  const answer = await fetch(`${started.url}/session`, {
    method: 'POST',
    headers: logOn.headers,
    body: JSON.stringify(logOn.body),
  });
  const session = (await answer.json()) as { Session: string };
  return {
    fake: started,
    headers: { 'content-type': 'application/json', UserName: 'DM123456', Session: session.Session },
  };
}

let fake: ForexFake;
let headers: Record<string, string>;
beforeAll(async () => {
  ({ fake, headers } = await startLoggedOn());
});
afterAll(() => fake.close());

/** One call to a fake (the shared one unless told); its answer checked against the DTO its route returns. */
async function call(method: string, url: string, body?: unknown, on = { fake, headers }) {
  const response = await fetch(`${on.fake.url}${url}`, {
    method,
    headers: on.headers,
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const answer = (await response.json()) as Record<string, unknown>;
  const route = matchRoute(method, url.split('?')[0] ?? '');
  expect(route?.returns, `${method} ${url}`).toBeDefined();
  expect(checkDto(route?.returns ?? '', answer), `${method} ${url}`).toBeUndefined();
  return { status: response.status, answer };
}
const pathOf = (url: string) => url.replace('https://ciapi.cityindex.com/TradingAPI', '');

describe('ciapi-meta.json', () => {
  it("is City Index's SMD routes and DTOs, unchanged, with every DTO they reference", () => {
    const meta = JSON.parse(readFileSync(new URL('./ciapi-meta.json', import.meta.url), 'utf8'));
    const rpc = read('ciapi-meta/smd.json').services.rpc.services;
    const schema = read('ciapi-meta/schema.json').properties;
    for (const [name, route] of Object.entries(meta.routes)) expect(route, name).toEqual(rpc[name]);
    for (const [name, dto] of Object.entries(meta.dtos)) expect(dto, name).toEqual(schema[name]);
    const referenced = [...JSON.stringify(meta).matchAll(/"(?:\$ref|extends)":"#\.(\w+)"/g)].map((m) => m[1]);
    expect(referenced.filter((name) => name && !meta.dtos[name])).toEqual([]);
  });
});

describe('the published examples', () => {
  it('log on, account and market search answer as published', async () => {
    expect(fake.sessions.size).toBe(1);
    const accounts = published('accounts.response');
    expect((await call('GET', pathOf(accounts.request.url))).answer).toEqual(accounts.response.body);
    const markets = published('markets.search.response');
    expect((await call('GET', pathOf(markets.request.url))).answer).toMatchObject(markets.response.body);
  });

  it('the bracket trade is answered as newtradeorder.response.json; the entry and the cancel are accepted', async () => {
    // The published order ids are the first the fake hands out: this needs a fake no other test has traded on.
    const own = await startLoggedOn();
    try {
      const trade = published('newtradeorder.request').request;
      const answer = await call('POST', pathOf(trade.url), trade.body, own);
      expect(answer).toEqual({ status: 200, answer: published('newtradeorder.response').response.body });
      const entry = published('newstoplimitorder.request').request;
      expect((await call('POST', pathOf(entry.url), entry.body, own)).answer).toMatchObject({
        Status: 1,
        Orders: [{ Status: 2 }],
      });
      const cancel = published('cancel.request').request;
      expect((await call('POST', pathOf(cancel.url), cancel.body, own)).answer).toMatchObject({
        Status: 1,
        OrderId: cancel.body.OrderId,
        Orders: [{ Status: 4 }],
      });
    } finally {
      await own.fake.close();
    }
  });

  it('a trade on a closed market is rejected inside HTTP 200, in trade.rejected.response.json’s shape', async () => {
    const body = { ...published('newtradeorder.request').request.body, MarketId: 401484350, IfDone: [] };
    const { status, answer } = await call('POST', '/order/newtradeorder', {
      ...body,
      BidPrice: 32.1541,
      OfferPrice: 32.2143,
    });
    const rejected = published('trade.rejected.response').response.body;
    expect(status).toBe(200);
    expect(answer).toEqual({
      ...rejected,
      OrderId: answer.OrderId,
      Orders: [{ ...rejected.Orders[0], OrderId: answer.OrderId }],
    });
  });

  it('a session it does not know is refused as error.invalid-session.response.json', async () => {
    const response = await fetch(`${fake.url}/useraccount/ClientAndTradingAccount`, {
      headers: { ...headers, Session: 'expired' },
    });
    const expected = published('error.invalid-session.response').response;
    expect([response.status, await response.json()]).toEqual([expected.status, expected.body]);
  });
});

describe('every answer is of its route’s DTO', () => {
  it('lists, lookups, margin and the simulation', async () => {
    const account = 'TradingAccountId=400234567';
    for (const url of [
      '/market/401484347/information',
      '/market/401484347/tickhistory?PriceTicks=1&priceType=BID',
      `/order/openpositions?${account}`,
      `/order/activestoplimitorders?${account}`,
      `/order/tradehistory?${account}&MaxResults=100`,
      `/order/stoplimitorderhistory?${account}&MaxResults=100`,
      '/order/712345678',
      '/margin/ClientAccountMargin',
    ])
      expect((await call('GET', url)).status, url).toBe(200);
    await call('POST', '/order/activeorders', { TradingAccountId: 400234567, MaxResults: 10 });
    const trade = { ...published('newtradeorder.request').request.body, IfDone: [] };
    expect((await call('POST', '/order/simulate/newtradeorder', trade)).answer).toMatchObject({ Status: 1 });
  });

  it('refuses unknown query parameters and wrong types (ErrorCode 4002, 4000)', async () => {
    const unknown = await fetch(`${fake.url}/order/openpositions?TradingAccountId=1&Foo=2`, { headers });
    expect(await unknown.json()).toMatchObject({ HttpStatus: 400, ErrorCode: 4002 });
    const trade = { ...published('newtradeorder.request').request.body, Quantity: '10000' };
    const typed = await fetch(`${fake.url}/order/newtradeorder`, {
      method: 'POST',
      headers,
      body: JSON.stringify(trade),
    });
    expect(await typed.json()).toEqual({
      HttpStatus: 400,
      ErrorMessage: 'Quantity must be of type number',
      ErrorCode: 4000,
    });
  });
});
