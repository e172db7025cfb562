// An order the database fails to store (an outage after the caller was authenticated): the API
// answers the 503 its document declares, with the Retry-After every 503 carries (the document's
// promise, which a client's retry loop reads), places nothing and spends no credit.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { api, apiTrader } from '../../../test/api.ts';
import { type OAuthServer, startOAuthServer } from '../../../test/oauth.ts';
import { Contract, type OpenApiDocument } from '../../../test/openapi-contract.ts';
import { balanceOf } from '../../../test/signal-fixtures.ts';
import { UNAVAILABLE_MESSAGE, UNAVAILABLE_RETRY_AFTER_S } from '../../errors.ts';

let server: OAuthServer;
beforeAll(async () => {
  server = await startOAuthServer();
});
afterAll(() => server.close());

/** The database refuses this user's new signals until the returned function runs. */
async function refuseSignals(userId: number): Promise<() => Promise<void>> {
  const pool = server.services.db.$client;
  await pool.query(
    `create function test_refuse_signal() returns trigger language plpgsql as $$
     begin raise exception 'database unavailable'; end $$`,
  );
  await pool.query(
    `create trigger test_refuse_signal before insert on signals for each row
     when (new.user_id = ${Number(userId)}) execute function test_refuse_signal()`,
  );
  return async () => {
    await pool.query('drop trigger test_refuse_signal on signals; drop function test_refuse_signal()');
  };
}

it('answers an order it could not store 503 with Retry-After, as documented, and places nothing', async () => {
  const doc = (await api(server, null, 'GET', '/api/openapi.json')).body as OpenApiDocument;
  const trader = await apiTrader(server, 'store-outage@example.test');
  const listed = await api(server, trader.apiToken, 'GET', '/api/v1/accounts');
  const account = (listed.body as { data: Array<{ id: string }> }).data[0]?.id ?? '';
  const before = await balanceOf(server, trader.id);
  const restore = await refuseSignals(trader.id);
  try {
    const refused = await api(server, trader.apiToken, 'POST', `/api/v1/accounts/${account}/orders`, {
      symbol: 'AAPL',
      action: 'buy',
      quantity: 1,
    });
    new Contract(doc).check('POST', '/api/v1/accounts/{id}/orders', refused.status, refused.body);
    expect({ status: refused.status, body: refused.body }).toEqual({
      status: 503,
      body: { status: 'Error', message: UNAVAILABLE_MESSAGE },
    });
    expect(refused.headers.get('retry-after')).toBe(String(UNAVAILABLE_RETRY_AFTER_S));
  } finally {
    await restore();
  }
  const orders = await api(server, trader.apiToken, 'GET', `/api/v1/accounts/${account}/orders`);
  expect((orders.body as { data: unknown[] }).data).toEqual([]);
  expect(await balanceOf(server, trader.id)).toBe(before);
});
