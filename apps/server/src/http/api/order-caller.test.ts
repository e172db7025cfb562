// A REST API order's activity entry names who placed it: the application by its name, or the
// personal token by the name its owner gave it, so a trader can tell an app's orders from a
// script's (and from their webhooks') in the activity log.
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { api, apiTrader, oauthAccessToken } from '../../../test/api.ts';
import { bearer, gql } from '../../../test/identity.ts';
import { type OAuthServer, professionalWithApp, startOAuthServer } from '../../../test/oauth.ts';
import { personalTokenCaller } from '../../modules/oauth/verify-bearer.ts';

let server: OAuthServer;

beforeAll(async () => {
  server = await startOAuthServer();
});

afterAll(async () => {
  await server?.close();
});

interface Entry {
  description: string;
  trade: { hookName: string | null; via: string | null; symbol: string | null } | null;
}

async function orderEntries(sessionToken: string, search?: string): Promise<Entry[]> {
  const answer = await gql<{ actions: Entry[] }>(
    server.app,
    'query($s: String) { actions(search: $s) { description trade { hookName via symbol } } }',
    search === undefined ? {} : { s: search },
    bearer(sessionToken),
  );
  return (answer.data?.actions ?? []).filter((entry) => entry.trade);
}

it("names the application or the personal token on an API order's activity entry", async () => {
  const trader = await apiTrader(server, 'caller-named@example.com');
  const { app } = await professionalWithApp(server, 'caller-dev@example.com');
  const appToken = await oauthAccessToken(server, app, trader.token, 'openid orders:write accounts:read');
  const accounts = await api(server, trader.apiToken, 'GET', '/api/v1/accounts');
  const account = (accounts.body as { data: Array<{ id: string }> }).data[0]?.id;
  const order = (symbol: string) => ({ symbol, action: 'buy', quantity: 1, type: 'limit', limit_price: 1 });

  expect((await api(server, appToken, 'POST', `/api/v1/accounts/${account}/orders`, order('MSFT'))).status).toBe(201);
  expect((await api(server, trader.apiToken, 'POST', `/api/v1/accounts/${account}/orders`, order('AAPL'))).status).toBe(
    201,
  );

  const entries = await vi.waitFor(
    async () => {
      const found = await orderEntries(trader.token);
      expect(found).toHaveLength(2);
      return found;
    },
    { timeout: 5_000, interval: 50 },
  );
  const bySymbol = Object.fromEntries(entries.map((entry) => [entry.trade?.symbol, entry.trade]));
  expect(bySymbol.MSFT).toMatchObject({ hookName: 'REST API', via: 'Journal Pro' });
  expect(bySymbol.AAPL).toMatchObject({ hookName: 'REST API', via: 'API token "bot"' });
  // Worded by who sent it (the account's API hook is no webhook the trader knows), and found so.
  const paper = `(Paper Trading#${trader.brokerAccountId})`;
  expect(entries.map((entry) => entry.description).sort()).toEqual([
    `REST API order from API token "bot" ${paper}`,
    `REST API order from Journal Pro ${paper}`,
  ]);
  const found = await orderEntries(trader.token, 'Journal Pro');
  expect(found.map((entry) => entry.trade?.symbol)).toEqual(['MSFT']);
});

it('names a personal token without a name "API token", and bounds a long name', () => {
  expect(personalTokenCaller(null)).toBe('API token');
  expect(personalTokenCaller('   ')).toBe('API token');
  expect(personalTokenCaller(` ${'x'.repeat(300)} `)).toBe(`API token "${'x'.repeat(100)}"`);
});
