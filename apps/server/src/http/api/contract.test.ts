// The OpenAPI document is valid OpenAPI 3.1, documents every route with examples, and every real
// answer of the API (each route, success and error) validates against it. Along the way: orders
// go through the signal path (validation as for a hook, exactly once with Idempotency-Key, one
// credit), lists page with cursors, cancel and holdings reach the paper broker.
import SwaggerParser from '@apidevtools/swagger-parser';
import { MAX_BODY_LENGTH, normalizeOrder, rawOrderSchema } from '@router/orders';
import { API_SCOPE_NAMES } from '@router/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, apiTrader, oauthAccessToken } from '../../../test/api.ts';
import { bearer, gql } from '../../../test/identity.ts';
import { type OAuthServer, professionalWithApp, startOAuthServer } from '../../../test/oauth.ts';
import { Contract, type OpenApiDocument } from '../../../test/openapi-contract.ts';
import { balanceOf, paperOrders } from '../../../test/signal-fixtures.ts';
import { WRITTEN_AT } from '../../../test/written-at.ts';

let server: OAuthServer;
let doc: OpenApiDocument;
let contract: Contract;

beforeAll(async () => {
  server = await startOAuthServer();
  doc = (await api(server, null, 'GET', '/api/openapi.json')).body as OpenApiDocument;
  contract = new Contract(doc);
});
afterAll(() => server.close());

/** A request to `template` (its {params} filled in) whose answer is checked against the document. */
async function call(
  token: string | null,
  method: string,
  template: string,
  params: Record<string, string> = {},
  init: { body?: unknown; query?: string; headers?: Record<string, string> } = {},
) {
  const path = template.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(params[name] ?? ''));
  const answer = await api(server, token, method, `${path}${init.query ?? ''}`, init.body, init.headers);
  contract.check(method, template, answer.status, answer.body);
  return answer;
}

interface Order {
  id: string;
  status: string;
  accountId: string;
  brokerOrderId: string | null;
}

/** A trader of the case's own (so the cases pass in any order), with its one account's API id. */
async function traderWithAccount(email: string) {
  const trader = await apiTrader(server, email);
  const listed = await call(trader.apiToken, 'GET', '/api/v1/accounts');
  return { trader, account: (listed.body as { data: Array<{ id: string }> }).data[0]?.id ?? '' };
}

/** Places `order` on the trader's account through the API. */
const placeOrder = (token: string, account: string, body: unknown, headers?: Record<string, string>) =>
  call(token, 'POST', '/api/v1/accounts/{id}/orders', { id: account }, { body, headers });

/** Fastify's printRoutes tree (`├── /segment (GET, HEAD)`, nested by 4 columns) as method and full path. */
function routesOf(tree: string): Array<{ method: string; path: string }> {
  const stack: string[] = [];
  return tree.split('\n').flatMap((line) => {
    const match = /^(.*?)[├└]── (.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!match) return [];
    const depth = (match[1] ?? '').length / 4;
    stack.length = depth;
    stack.push(match[2] ?? '');
    const path = stack.join('');
    return (match[3] ?? '')
      .split(', ')
      .filter(Boolean)
      .map((method) => ({ method, path }));
  });
}

const RATE_LIMIT_HEADERS = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'] as const;
const RATE_LIMIT_REFS = Object.fromEntries(
  RATE_LIMIT_HEADERS.map((name) => [name, { $ref: `#/components/headers/${name}` }]),
);

describe('the OpenAPI document', () => {
  it('is valid OpenAPI 3.1', async () => {
    expect(doc.openapi).toBe('3.1.0');
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeTruthy();
  });

  it('documents every route, each with a summary, tags, security and examples', () => {
    const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => ({ path, method, op: op as Record<string, unknown> })),
    );
    expect(operations.map((o) => `${o.method.toUpperCase()} ${o.path}`).sort()).toEqual([
      'DELETE /api/v1/orders/{orderId}',
      'GET /api/v1/accounts',
      'GET /api/v1/accounts/{id}/balances',
      'GET /api/v1/accounts/{id}/orders',
      'GET /api/v1/accounts/{id}/positions',
      'GET /api/v1/orders/{orderId}',
      'POST /api/v1/accounts/{id}/orders',
    ]);
    const component = (schema: unknown) => {
      const ref =
        String((schema as { $ref: string }).$ref)
          .split('/')
          .at(-1) ?? '';
      return doc.components.schemas[ref] as { examples?: unknown[] };
    };
    for (const { path, op } of operations) {
      expect(op.summary, path).toBeTruthy();
      expect(op.tags, path).toHaveLength(1);
      expect(op.security, path).toEqual([{ bearer: [] }, { oauth2: [expect.stringMatching(/^[a-z]+:(read|write)$/)] }]);
      const responses = op.responses as Record<string, { content: { 'application/json': { schema: unknown } } }>;
      const success = Object.keys(responses).filter((status) => status.startsWith('2'));
      expect(success, path).toHaveLength(1);
      for (const status of Object.keys(responses)) {
        expect(
          component(responses[status]?.content['application/json'].schema).examples?.length,
          `${path} ${status}`,
        ).toBeGreaterThan(0);
      }
      // Every route may also fail on our side (500) or while the server shuts down (503).
      expect(Object.keys(responses), path).toEqual(expect.arrayContaining(['401', '403', '429', '500', '503']));
      const body = (op.requestBody as { content: { 'application/json': { schema: unknown } } } | undefined)?.content;
      if (body) expect(component(body['application/json'].schema).examples?.length).toBeGreaterThan(0);
    }
  });

  it('has exactly the operations the server routes under /api/v1, as the router itself lists them', () => {
    // A route without tags is served (behind the guard) but left out of the document (hideUntagged).
    const routed = routesOf(server.app.printRoutes({ commonPrefix: false }))
      .filter((route) => route.path.startsWith('/api/v1/') && route.method !== 'HEAD')
      .map((route) => `${route.method} ${route.path.replace(/:(\w+)/g, '{$1}')}`);
    const documented = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(routed.sort()).toEqual(documented.sort());
  });

  it('declares its headers: WWW-Authenticate on 401 and 403, Retry-After on 429 and 503, RateLimit-* on every answer', () => {
    const headers = doc.components.headers as Record<string, { schema: { type: string } }>;
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const op of Object.values(item) as Array<{ responses: Record<string, { headers?: unknown }> }>) {
        for (const [status, name] of [
          ['401', 'WWW-Authenticate'],
          ['403', 'WWW-Authenticate'],
          ['429', 'Retry-After'],
          ['503', 'Retry-After'],
        ] as const) {
          expect(op.responses[status]?.headers, `${path} ${status}`).toEqual({
            [name]: { $ref: `#/components/headers/${name}` },
            ...RATE_LIMIT_REFS,
          });
        }
        // Every answer given once a token was counted tells the allowance left.
        for (const [status, response] of Object.entries(op.responses)) {
          expect(response.headers, `${path} ${status}`).toMatchObject(RATE_LIMIT_REFS);
        }
      }
    }
    expect(headers['WWW-Authenticate']?.schema.type).toBe('string');
    expect(headers['Retry-After']?.schema.type).toBe('integer');
    for (const name of RATE_LIMIT_HEADERS) expect(headers[name]?.schema.type).toBe('integer');
  });

  it("tells an application's developer how to get tokens: a discovery URL that works, PKCE, lifetimes, rotation", async () => {
    const text = (doc as unknown as { info: { description: string } }).info.description.replace(/\s+/g, ' ');
    expect(text).toContain(`\`${server.baseUrl}/oidc/.well-known/openid-configuration\``);
    const discovery = await api(server, null, 'GET', '/oidc/.well-known/openid-configuration');
    expect((discovery.body as { issuer: string }).issuer).toBe(`${server.baseUrl}/oidc`);
    expect(text).toContain('PKCE (S256) required');
    expect(text).toContain('Access tokens last 1 hour; every token response carries a refresh token (30 days)');
    expect(text).toContain("a refresh token presented again ends the user's grant");
  });

  it('says what each answer means, not the plugin’s "Default Response"', () => {
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const op of Object.values(item) as Array<{ responses: Record<string, { description: string }> }>) {
        for (const [status, response] of Object.entries(op.responses)) {
          expect(response.description, `${path} ${status}`).not.toBe('Default Response');
        }
        expect(op.responses['401']?.description).toMatch(/^AuthenticationError: /);
        expect(op.responses['403']?.description).toMatch(/^ForbiddenError: .*scope/);
      }
    }
  });

  it('has a model for each shape an operation takes or answers, under its own name: no unused …Input twins', () => {
    const text = JSON.stringify(doc);
    const used = (name: string) => text.includes(`"#/components/schemas/${name}"`);
    expect(Object.keys(doc.components.schemas).filter((name) => !used(name))).toEqual([]);
    expect(Object.keys(doc.components.schemas).sort()).toEqual(
      [
        'Account',
        'AccountList',
        'Balances',
        'Error',
        'Order',
        'OrderLeg',
        'OrderList',
        'OrderRequest',
        'Position',
        'PositionList',
      ].sort(),
    );
    const body = (doc.paths['/api/v1/accounts/{id}/orders']?.post as { requestBody?: unknown } | undefined)
      ?.requestBody;
    expect(body).toMatchObject({
      content: { 'application/json': { schema: { $ref: '#/components/schemas/OrderRequest' } } },
    });
  });

  it('documents the order body as the order language reads it: every field it takes, none it refuses', () => {
    const body = doc.components.schemas.OrderRequest as { properties: Record<string, unknown>; required?: string[] };
    expect(Object.keys(body.properties).sort()).toEqual(Object.keys(rawOrderSchema.shape).sort());
    // A legs array carries each leg's symbol and action, and the order refuses them on top: neither is required.
    const legs = {
      legs: [
        { symbol: 'SPY_271217P00540000', action: 'buy_to_open' },
        { symbol: 'SPY_271217P00550000', action: 'sell_to_open' },
      ],
      quantity: 1,
      limit_price: -0.5,
    };
    expect(normalizeOrder(legs, { now: WRITTEN_AT }).ok).toBe(true);
    expect(normalizeOrder({ ...legs, symbol: 'SPY_271217P00540000' }, { now: WRITTEN_AT }).ok).toBe(false);
    expect(body.required ?? []).toEqual([]);
  });

  it('quotes, in its error example, the message the order language gives', () => {
    const error = doc.components.schemas.Error as { examples: Array<{ status: string; message: string }> };
    const refused = normalizeOrder({ action: 'buy', quantity: 1 });
    expect(error.examples[0]).toEqual({ status: 'ValidationError', message: refused.ok ? '' : refused.error.message });
  });
});

describe('real answers against the document', () => {
  it('lists the accounts', async () => {
    const alice = await apiTrader(server, 'alice@example.test');
    const listed = await call(alice.apiToken, 'GET', '/api/v1/accounts');
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual({
      data: [{ id: expect.any(String), providerName: 'paper', name: 'Paper account', isTest: true }],
      next: null,
    });
    const account = (listed.body as { data: Array<{ id: string }> }).data[0]?.id ?? '';
    // Opaque: neither the broker's account id nor the connection key reads in it.
    expect(account).not.toContain(alice.brokerAccountId);
    expect((await call(null, 'GET', '/api/v1/accounts')).status).toBe(401);
  });

  it('places an order exactly once per Idempotency-Key, spending one credit', async () => {
    const { trader: alice, account } = await traderWithAccount('placing@example.test');
    const before = await balanceOf(server, alice.id);
    const order = { symbol: 'AAPL', action: 'buy', quantity: 2 };
    const headers = { 'idempotency-key': 'journal-42' };
    const first = await call(
      alice.apiToken,
      'POST',
      '/api/v1/accounts/{id}/orders',
      { id: account },
      { body: order, headers },
    );
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      accountId: account,
      status: 'filled',
      symbol: 'AAPL',
      action: 'buy',
      quantity: 2,
    });
    const again = await call(
      alice.apiToken,
      'POST',
      '/api/v1/accounts/{id}/orders',
      { id: account },
      { body: order, headers },
    );
    expect(again.status).toBe(201);
    expect((again.body as Order).id).toBe((first.body as Order).id);
    const placed = await paperOrders(server, alice.brokerAccountId);
    expect(placed.map((o) => o.client_order_id)).toEqual([(first.body as Order).id]);
    expect(await balanceOf(server, alice.id)).toBe(before - 1);

    // Another key is another order.
    const other = await call(
      alice.apiToken,
      'POST',
      '/api/v1/accounts/{id}/orders',
      { id: account },
      {
        body: order,
        headers: { 'idempotency-key': 'journal-43' },
      },
    );
    expect((other.body as Order).id).not.toBe((first.body as Order).id);
    expect(await balanceOf(server, alice.id)).toBe(before - 2);
  });

  it('refuses an Idempotency-Key reused for another order, placing nothing', async () => {
    const { trader: alice, account } = await traderWithAccount('reused-key@example.test');
    const headers = { 'idempotency-key': 'journal-7' };
    const first = await placeOrder(alice.apiToken, account, { symbol: 'AAPL', action: 'buy', quantity: 2 }, headers);
    expect(first.status).toBe(201);
    const before = await balanceOf(server, alice.id);
    // The same order, its keys in another order and spaced otherwise, is a retry: the first order.
    const retry = await placeOrder(alice.apiToken, account, '{"quantity":2,  "action":"buy","symbol":"AAPL"}', headers);
    expect(retry.status).toBe(201);
    expect((retry.body as Order).id).toBe((first.body as Order).id);
    // Another order under the same key is the client's mistake, not a retry: refused, not answered as the first.
    const other = await placeOrder(alice.apiToken, account, { symbol: 'MSFT', action: 'sell', quantity: 5 }, headers);
    expect(other.status).toBe(400);
    expect(other.body).toEqual({
      status: 'ValidationError',
      message: 'Idempotency-Key: already used for another order; send a new key for a new order',
    });
    const placed = await paperOrders(server, alice.brokerAccountId);
    expect(placed.map((o) => o.client_order_id)).toEqual([(first.body as Order).id]);
    expect(await balanceOf(server, alice.id)).toBe(before);
  });

  it('keeps each client’s Idempotency-Keys its own: another application or token using the same key places its order', async () => {
    const { trader: alice, account } = await traderWithAccount('shared-key@example.test');
    const { app: journal } = await professionalWithApp(server, 'dev-journal@example.test');
    const { app: copier } = await professionalWithApp(server, 'dev-copier@example.test');
    const journalToken = await oauthAccessToken(server, journal, alice.token, 'orders:write');
    const copierToken = await oauthAccessToken(server, copier, alice.token, 'orders:write');
    const created = await gql<{ userTokenCreate: { secret: string } }>(
      server.app,
      'mutation { userTokenCreate(metadata: {name: "second bot"}) { secret } }',
      {},
      bearer(alice.token),
    );
    const secondToken = created.data?.userTokenCreate.secret ?? '';
    const order = { symbol: 'AAPL', action: 'buy', quantity: 1 };
    const headers = { 'idempotency-key': '1' };
    const ids: string[] = [];
    for (const token of [journalToken, copierToken, alice.apiToken, secondToken]) {
      const placed = await placeOrder(token, account, order, headers);
      expect(placed.status).toBe(201);
      ids.push((placed.body as Order).id);
    }
    expect(new Set(ids).size).toBe(4);
    // A true retry by the same client still answers its first order, another token of the same application too.
    const journalAgain = await oauthAccessToken(server, journal, alice.token, 'orders:write');
    const retry = await placeOrder(journalAgain, account, order, headers);
    expect((retry.body as Order).id).toBe(ids[0]);
    const placed = await paperOrders(server, alice.brokerAccountId);
    expect(placed.map((o) => o.client_order_id).sort()).toEqual([...ids].sort());
  });

  it('dedupes an order sent without a key only against the same client’s: another application’s same order is placed', async () => {
    const { trader: alice, account } = await traderWithAccount('same-body@example.test');
    const { app: dca } = await professionalWithApp(server, 'dev-dca@example.test');
    const { app: rebalancer } = await professionalWithApp(server, 'dev-rebalancer@example.test');
    const order = { symbol: 'MSFT', action: 'buy', quantity: 1 };
    const ids: string[] = [];
    for (const app of [dca, rebalancer]) {
      const token = await oauthAccessToken(server, app, alice.token, 'orders:write');
      const placed = await placeOrder(token, account, order);
      expect(placed.status).toBe(201);
      ids.push((placed.body as Order).id);
    }
    const byToken = await placeOrder(alice.apiToken, account, order);
    ids.push((byToken.body as Order).id);
    expect(new Set(ids).size).toBe(3);
    // The same client sending it again within the window is the documented repeat: its first order.
    const repeat = await placeOrder(alice.apiToken, account, order);
    expect((repeat.body as Order).id).toBe(ids[2]);
    const placed = await paperOrders(server, alice.brokerAccountId);
    expect(placed.map((o) => o.client_order_id).sort()).toEqual([...ids].sort());
  });

  it('refuses a bad order with the hook’s own message, placing and charging nothing', async () => {
    const { trader: alice, account } = await traderWithAccount('refused@example.test');
    const before = await balanceOf(server, alice.id);
    for (const body of [{ symbol: 'AAPL', action: 'buy', quantity: 1, stop_los_price: 3 }, '{"symbol": "AAPL"']) {
      const text = typeof body === 'string' ? body : JSON.stringify(body);
      const refused = await call(
        alice.apiToken,
        'POST',
        '/api/v1/accounts/{id}/orders',
        { id: account },
        { body: text },
      );
      expect(refused.status).toBe(400);
      const expected = normalizeOrder(text, { provider: server.services.brokers.descriptor('paper') });
      expect(expected.ok).toBe(false);
      expect(refused.body).toEqual({ status: 'ValidationError', message: expected.ok ? '' : expected.error.message });
    }
    const unknown = await call(
      alice.apiToken,
      'POST',
      '/api/v1/accounts/{id}/orders',
      { id: account },
      {
        body: { symbol: 'ZZZZZQ', action: 'buy', quantity: 1 },
      },
    );
    expect(unknown.body).toEqual({ status: 'ExecutionError', message: 'Paper Trading: Symbol not found: ZZZZZQ' });
    const tooLarge = await call(
      alice.apiToken,
      'POST',
      '/api/v1/accounts/{id}/orders',
      { id: account },
      {
        body: { symbol: 'AAPL', action: 'buy', quantity: 1, client_id: 'x'.repeat(70_000) },
      },
    );
    expect(tooLarge.status).toBe(413);
    // The broker's refusal gives its credit back with the outcome, written just after the answer.
    await expect.poll(() => balanceOf(server, alice.id)).toBe(before);
  });

  it('pages through an account’s orders and reads one', async () => {
    const { trader: alice, account } = await traderWithAccount('paging@example.test');
    // Two filled, then one the broker refuses (newest first in the list).
    for (const key of ['page-1', 'page-2']) {
      const placed = await placeOrder(
        alice.apiToken,
        account,
        { symbol: 'AAPL', action: 'buy', quantity: 2 },
        {
          'idempotency-key': key,
        },
      );
      expect(placed.body).toMatchObject({ status: 'filled' });
    }
    await placeOrder(alice.apiToken, account, { symbol: 'ZZZZZQ', action: 'buy', quantity: 1 });
    // The refusal's outcome is written just after the answer.
    await expect
      .poll(async () => {
        const { rows } = await server.services.db.$client.query<{ status: string }>(
          `select status from signals where user_id = $1 and "order"->>'symbol' = 'ZZZZZQ'`,
          [alice.id],
        );
        return rows[0]?.status;
      })
      .toBe('rejected');
    const first = await call(
      alice.apiToken,
      'GET',
      '/api/v1/accounts/{id}/orders',
      { id: account },
      { query: '?limit=1' },
    );
    expect(first.status).toBe(200);
    const page1 = first.body as { data: Order[]; next: string | null };
    expect(page1.data).toHaveLength(1);
    expect(page1.next).toBeTruthy();
    const rest = await call(
      alice.apiToken,
      'GET',
      '/api/v1/accounts/{id}/orders',
      { id: account },
      {
        query: `?limit=50&cursor=${page1.next}`,
      },
    );
    const page2 = rest.body as { data: Order[]; next: string | null };
    expect(page2.next).toBeNull();
    const all = [...page1.data, ...page2.data];
    expect(all.map((o) => o.status)).toEqual(['rejected', 'filled', 'filled']);
    expect(new Set(all.map((o) => o.id)).size).toBe(3);

    const one = await call(alice.apiToken, 'GET', '/api/v1/orders/{orderId}', { orderId: page1.data[0]?.id ?? '' });
    expect(one.body).toEqual(page1.data[0]);
    expect((await call(alice.apiToken, 'GET', '/api/v1/orders/{orderId}', { orderId: 'nope' })).status).toBe(404);
    const badLimit = await call(
      alice.apiToken,
      'GET',
      '/api/v1/accounts/{id}/orders',
      { id: account },
      { query: '?limit=500' },
    );
    expect(badLimit.status).toBe(400);
  });

  it('refuses a cursor that names no order of the account, rather than answering the last page', async () => {
    const { trader: alice, account } = await traderWithAccount('cursor@example.test');
    const placed = await placeOrder(alice.apiToken, account, { symbol: 'AAPL', action: 'buy', quantity: 1 });
    const own = (placed.body as Order).id;
    const { trader: bob, account: bobAccount } = await traderWithAccount('cursor-other@example.test');
    // A mangled cursor, and a real order id of another user: neither is a place in this list. Nor
    // is an empty one (a client sending the last page's null `next` as ''): answered as the first
    // page, it had the client read the list again from the top, forever.
    for (const cursor of [`${own}x`, 'nope', '']) {
      const listed = await call(
        bob.apiToken,
        'GET',
        '/api/v1/accounts/{id}/orders',
        { id: bobAccount },
        { query: `?cursor=${cursor}` },
      );
      expect(listed.status).toBe(400);
      expect(listed.body).toEqual({ status: 'ValidationError', message: 'cursor: not a page of this list' });
    }
    const foreign = await call(
      bob.apiToken,
      'GET',
      '/api/v1/accounts/{id}/orders',
      { id: bobAccount },
      { query: `?cursor=${own}` },
    );
    expect(foreign.status).toBe(400);
    // The account's own cursor still pages.
    const mine = await call(
      alice.apiToken,
      'GET',
      '/api/v1/accounts/{id}/orders',
      { id: account },
      { query: `?cursor=${own}` },
    );
    expect(mine.body).toEqual({ data: [], next: null });
  });

  it('takes the id of an account whose broker id is long (a Schwab account hash), and answers 400 past any id', async () => {
    const { trader: alice } = await traderWithAccount('long-id@example.test');
    // Schwab names an account by its hash: 64 hex characters.
    const hash = 'A1B2C3D4E5F60718293A4B5C6D7E8F90A1B2C3D4E5F60718293A4B5C6D7E8F90';
    await server.services.db.$client.query(
      `update connectors set accounts = accounts || jsonb_build_array(jsonb_build_object('id', $2::text, 'name', 'Hashed', 'demo', true)) where user_id = $1`,
      [alice.id, hash],
    );
    const listed = await call(alice.apiToken, 'GET', '/api/v1/accounts');
    const hashed = (listed.body as { data: Array<{ id: string; name: string }> }).data.find((a) => a.name === 'Hashed');
    expect(hashed?.id.length).toBeGreaterThan(100);
    const orders = await call(alice.apiToken, 'GET', '/api/v1/accounts/{id}/orders', { id: hashed?.id ?? '' });
    expect(orders.status).toBe(200);
    expect(orders.body).toEqual({ data: [], next: null });
    // Longer than any id: the documented 400, not a status the document does not have.
    const tooLong = await call(alice.apiToken, 'GET', '/api/v1/orders/{orderId}', { orderId: 'x'.repeat(300) });
    expect(tooLong.status).toBe(400);
  });

  it('answers a path it cannot route (a broken %-escape, an id past any parameter length) with the documented 400 error', async () => {
    // The router refuses these before any route (or the token check) runs: no caller needed.
    for (const path of ['/api/v1/orders/%E0%A4%A', `/api/v1/orders/${'x'.repeat(1200)}`]) {
      const answer = await api(server, null, 'GET', path);
      expect({ status: answer.status, body: answer.body }, path.slice(0, 40)).toEqual({
        status: 400,
        body: { status: 'ValidationError', message: expect.any(String) },
      });
      contract.check('GET', '/api/v1/orders/{orderId}', answer.status, answer.body);
    }
  });

  it('cancels a resting order at the broker, once', async () => {
    const { trader: alice, account } = await traderWithAccount('cancel@example.test');
    const placed = await call(
      alice.apiToken,
      'POST',
      '/api/v1/accounts/{id}/orders',
      { id: account },
      {
        body: { symbol: 'AAPL', action: 'buy', quantity: 1, type: 'limit', limit_price: 1 },
      },
    );
    expect(placed.body).toMatchObject({ status: 'accepted', type: 'limit', limitPrice: 1 });
    const { id } = placed.body as Order;
    const canceled = await call(alice.apiToken, 'DELETE', '/api/v1/orders/{orderId}', { orderId: id });
    expect(canceled.status).toBe(200);
    expect(canceled.body).toMatchObject({ id, status: 'canceled' });
    const { rows } = await server.services.db.$client.query<{ status: string }>(
      'select status from paper_orders where client_order_id = $1',
      [id],
    );
    expect(rows.map((r) => r.status)).toEqual(['canceled']);
    const twice = await call(alice.apiToken, 'DELETE', '/api/v1/orders/{orderId}', { orderId: id });
    expect(twice.body).toEqual({ status: 'ExecutionError', message: 'Order is canceled: there is nothing to cancel' });
  });

  it('refuses to cancel an order of an account its connection no longer holds, keeping the connection', async () => {
    const { trader: alice, account } = await traderWithAccount('cancel-dropped@example.test');
    const placed = await placeOrder(alice.apiToken, account, {
      symbol: 'AAPL',
      action: 'buy',
      quantity: 1,
      type: 'limit',
      limit_price: 1,
    });
    const { id } = placed.body as Order;
    // Reconnected without that account (left out at the broker's consent, or closed there).
    const pool = server.services.db.$client;
    await pool.query(
      `update connectors set accounts = jsonb_build_array(jsonb_set(accounts->0, '{id}', '"P-kept"')),
         updated_at = clock_timestamp() where key = $1`,
      [alice.connector.key],
    );
    const refused = await call(alice.apiToken, 'DELETE', '/api/v1/orders/{orderId}', { orderId: id });
    const { rows } = await pool.query<{ is_active: boolean }>('select is_active from connectors where key = $1', [
      alice.connector.key,
    ]);
    expect(rows.map((r) => r.is_active)).toEqual([true]);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ status: 'ExecutionError' });
  });

  it('reads positions and balances from the broker', async () => {
    const { trader: alice, account } = await traderWithAccount('holdings@example.test');
    await placeOrder(alice.apiToken, account, { symbol: 'AAPL', action: 'buy', quantity: 4 });
    const positions = await call(alice.apiToken, 'GET', '/api/v1/accounts/{id}/positions', { id: account });
    expect(positions.body).toEqual({
      data: [expect.objectContaining({ symbol: 'AAPL', quantity: 4 })],
      next: null,
    });
    const balances = await call(alice.apiToken, 'GET', '/api/v1/accounts/{id}/balances', { id: account });
    expect(balances.body).toMatchObject({ currency: 'USD', cash: expect.any(Number) });
    expect((await call(alice.apiToken, 'GET', '/api/v1/accounts/{id}/balances', { id: 'bm9uZQo' })).status).toBe(404);
  });

  it('answers 403 on every route to a token with every scope but the one the document names for it', async () => {
    const { trader: alice, account } = await traderWithAccount('scopes@example.test');
    const { app } = await professionalWithApp(server, 'scopes-dev@example.test');
    const lacking = new Map<string, string>();
    for (const scope of API_SCOPE_NAMES) {
      const others = API_SCOPE_NAMES.filter((other) => other !== scope).join(' ');
      lacking.set(scope, await oauthAccessToken(server, app, alice.token, others));
    }
    const ids = { id: account, orderId: 'nope' };
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        const security = (op as { security: Array<{ oauth2?: string[] }> }).security;
        const scope = security.find((entry) => entry.oauth2)?.oauth2?.[0] ?? '';
        const init = method === 'post' ? { body: { symbol: 'AAPL', action: 'buy', quantity: 1 } } : {};
        const refused = await call(lacking.get(scope) ?? '', method, path, ids, init);
        expect({ status: refused.status, body: refused.body }, `${method} ${path}`).toEqual({
          status: 403,
          body: { status: 'ForbiddenError', message: `This token lacks the scope ${scope}` },
        });
        expect(refused.headers.get('www-authenticate')).toBe(
          `Bearer realm="api", error="insufficient_scope", scope="${scope}"`,
        );
      }
    }
  });

  it('answers every route’s documented errors in the documented shape', async () => {
    const { trader: alice } = await traderWithAccount('errors@example.test');
    const unknown = { id: 'bm9uZQo', orderId: 'nope' };
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        const declared = Object.keys((op as { responses: object }).responses);
        const init = method === 'post' ? { body: { symbol: 'AAPL', action: 'buy', quantity: 1 } } : {};
        const anonymous = await call(null, method, path, unknown, init);
        expect(anonymous.status, `${method} ${path}`).toBe(401);
        const forged = await call('not-a-token', method, path, unknown, init);
        expect(forged.status, `${method} ${path}`).toBe(401);
        if (declared.includes('404')) {
          const missing = await call(alice.apiToken, method, path, unknown, init);
          expect(missing.status, `${method} ${path}`).toBe(404);
        }
        // Every route reads a body up to the order's limit (a GET can carry none in fetch): past it, 413.
        if (method !== 'get') {
          const huge = await call(alice.apiToken, method, path, unknown, { body: 'x'.repeat(MAX_BODY_LENGTH + 1) });
          expect(huge.status, `${method} ${path}`).toBe(413);
        }
      }
    }
  });

  // After every case, whatever their order: each documented operation answered its success status.
  afterAll(() => {
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        const success = Object.keys((op as { responses: object }).responses).find((s) => s.startsWith('2'));
        expect(contract.seen, `${method} ${path}`).toContain(`${method.toUpperCase()} ${path} ${success}`);
      }
    }
  });
});
