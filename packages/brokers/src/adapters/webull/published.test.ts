// Webull's published examples (../shared/broker-specs/webull/fixtures): each is replayed somewhere.
// The signature vectors in signer.test.ts; the order requests and answers through
// fixtures/requests.json and responses.json (core/replay.test.ts); the account list and the 2FA
// token's answer here, as the answers connect reads; and the requests the adapter sends for the
// published order examples, in the examples' own field order (the place body byte for byte as
// the signature vector signs it).
import { readdirSync, readFileSync } from 'node:fs';
import { normalizeOrderOrThrow } from '@router/orders';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brokerSpecsPath } from '../../core/prism-mock.ts';
import { createWebullBroker } from './adapter.ts';
import { webullDescriptor } from './descriptor.ts';
import { startWebullFake, type WebullFake } from './fake.ts';
import { connected, STOCKS, sentSince } from './test-support.ts';

const folder = brokerSpecsPath('webull', 'fixtures');
const response = (file: string) =>
  (JSON.parse(readFileSync(`${folder}/${file}`, 'utf8')) as { response: { status: number; body: unknown } }).response;
const replayed = ['requests.json', 'responses.json'].map((file) =>
  readFileSync(new URL(`./fixtures/${file}`, import.meta.url), 'utf8'),
);

let fake: WebullFake;
beforeAll(async () => {
  fake = await startWebullFake();
});
afterAll(() => fake.close());

describe("Webull's published examples", () => {
  it('each is used: by the replay fixtures (their description names it) or below', () => {
    const here = ['accounts.response.json', 'token-create.response.json', 'signature-vectors.json'];
    const files = readdirSync(folder).filter((file) => !here.includes(file));
    expect(files.filter((file) => !replayed.some((text) => text.includes(`(${file}`)))).toEqual([]);
  });

  it('connect reads the account list and a token PENDING until approved (token-create.response.json)', async () => {
    const broker = createWebullBroker({ tokenPolling: { intervalMs: 5, maxWaitMs: 1_000 } });
    const created = response('token-create.response.json');
    // Webull's answers throughout: an account with 2FA, its token, its accounts.
    fake.inject({ method: 'GET', path: '/openapi/config', status: 200, body: { token_check_enabled: true } });
    fake.inject({ method: 'POST', path: '/openapi/auth/token/create', ...created });
    fake.inject({ method: 'GET', path: '/openapi/account/list', ...response('accounts.response.json') });
    // The check answers for the published (placeholder) token: approved.
    const approved = { ...(created.body as Record<string, unknown>), status: 'NORMAL' };
    fake.inject({ method: 'POST', path: '/openapi/auth/token/check', status: 200, body: approved });
    const before = fake.requests.length;
    const session = await broker.connect({ baseUrl: fake.baseUrl }, { credentials: fake.keys });
    expect(sentSince(fake, before).at(-2)?.body).toEqual({ token: '<opaque-token>' });
    expect(session).toEqual({
      secrets: { ...fake.keys, environment: 'live', accessToken: '<opaque-token>', tokenExpires: '1782311462000' },
      accounts: [
        {
          id: 'DEMOACCT0001',
          name: 'Webull Individual Margin 5MV12345',
          dataTitle: '5MV12345',
          dataType: 'margin',
          dataCurrency: 'USD',
          demo: false,
        },
      ],
      expiresAt: 1782311462000,
      refreshAt: 1782311462000 - 7 * 24 * 60 * 60_000,
    });
  });
});

describe("the adapter sends Webull's published order requests", () => {
  const request = (file: string) =>
    (JSON.parse(readFileSync(`${folder}/${file}`, 'utf8')) as { request: { headers: Record<string, string> } }).request;
  const { vectors } = JSON.parse(readFileSync(`${folder}/signature-vectors.json`, 'utf8')) as {
    vectors: { raw_body: string | null }[];
  };

  it.each([
    [
      'place-order.request.json',
      { symbol: 'AAPL', action: 'buy', quantity: 1, limit_price: 188, duration: 'day' },
      'sig20260609a0001',
    ],
    [
      'place-order-option.request.json',
      { symbol: 'TSLA251226C00400000', action: 'buy_to_open', quantity: 1, limit_price: 21.25, duration: 'gtc' },
      'sig20260609a0002',
    ],
    [
      'bracket.request.json',
      {
        symbol: 'F',
        action: 'buy',
        quantity: 1,
        limit_price: 10.5,
        take_profit_price: 11.5,
        stop_loss_price: 10,
        duration: 'day',
      },
      'sig20260609m0001',
    ],
  ])('%s: the same fields in the same order, with its headers', async (file, signal, clientOrderId) => {
    const c = await connected();
    try {
      const before = c.fake.requests.length;
      // Read as of mid-2025, when the option the published sample names (December 2025) still traded.
      const order = normalizeOrderOrThrow(signal, { provider: webullDescriptor, now: () => Date.UTC(2025, 5, 9) });
      await c.broker.placeOrder(c.ctx, c.session, { accountId: STOCKS, clientOrderId, order });
      const sent = c.fake.requests[before];
      const published = request(file) as { headers: Record<string, string>; body: unknown };
      const keyOrder = (value: unknown): unknown =>
        Array.isArray(value)
          ? value.map(keyOrder)
          : value && typeof value === 'object'
            ? Object.entries(value).map(([key, inner]) => [key, keyOrder(inner)])
            : null;
      const body = JSON.parse(sent?.body ?? 'null');
      expect(keyOrder(body)).toEqual(keyOrder(published.body));
      // The sample's bracket ids are its own; ours derive the exits' and the combo's from one id.
      const ids = /"(client_order_id|client_combo_order_id)":"sig20260609[mplc]0001(?:TP|SL|CB)?"/g;
      expect(JSON.stringify(body).replace(ids, '"$1":"id"')).toBe(
        JSON.stringify(published.body).replace(ids, '"$1":"id"'),
      );
      if (file === 'place-order.request.json') expect(sent?.body).toBe(vectors[0]?.raw_body);
      for (const name of ['x-version', 'category', 'content-type', 'x-signature-version'])
        expect(sent?.headers[name]).toBe(
          Object.entries(published.headers).find(([key]) => key.toLowerCase() === name)?.[1],
        );
    } finally {
      await c.fake.close();
    }
  });
});
