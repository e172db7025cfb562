// The query parameters of /api/v1 (GET /api/v1/accounts/{id}/orders: limit, cursor): a bad one is
// refused with a message naming it and what it must be, however it is wrong (repeated, not a
// number, out of range), never zod's "expected number, received NaN".
import { afterAll, beforeAll, expect, it } from 'vitest';
import { api, apiTrader } from '../../../test/api.ts';
import { type OAuthServer, startOAuthServer } from '../../../test/oauth.ts';
import { accountId } from '../../modules/api/accounts.ts';

let server: OAuthServer;
let trader: Awaited<ReturnType<typeof apiTrader>>;
let orders = '';
beforeAll(async () => {
  server = await startOAuthServer();
  trader = await apiTrader(server, 'query@example.test');
  orders = `/api/v1/accounts/${accountId(trader.connector.key, trader.brokerAccountId)}/orders`;
});
afterAll(() => server.close());

it.each([
  ['?limit=1&limit=2', 'limit: give it once'],
  ['?cursor=a&cursor=b', 'cursor: give it once'],
  ['?limit=abc', 'limit: must be a whole number from 1 to 100'],
  ['?limit=', 'limit: must be a whole number from 1 to 100'],
  ['?limit=1.5', 'limit: must be a whole number from 1 to 100'],
  ['?limit=0', 'limit: must be a whole number from 1 to 100'],
  ['?limit=500', 'limit: must be a whole number from 1 to 100'],
])('refuses %s naming the parameter', async (query, message) => {
  const answer = await api(server, trader.apiToken, 'GET', `${orders}${query}`);
  expect(answer).toMatchObject({ status: 400, body: { status: 'ValidationError', message } });
});

it('still reads a good page', async () => {
  const answer = await api(server, trader.apiToken, 'GET', `${orders}?limit=100`);
  expect(answer).toMatchObject({ status: 200, body: { data: [], next: null } });
});
