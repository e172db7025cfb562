// A broker's failure answers the same on every route that calls the broker (one mapping,
// modules/connectors/broker-error.ts): its rate limit 429 with its Retry-After, its outage or a
// call whose outcome is unknown 503 (a dependency down, retry), a refusal 400 ExecutionError,
// always `{status, message}` with the broker's message; GraphQL's order preview with the same
// codes (RATE_LIMITED, SERVICE_UNAVAILABLE).
import { type Broker, BrokerError } from '@router/brokers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticateAsUserId, startTestApp, type TestApp } from '../../../test/app.ts';
import { gql as graphql } from '../../../test/connector-fixtures.ts';
import { gql } from '../../../test/identity.ts';
import { eventually, FLAKY_TITLE, flakyBroker, postSignal, setupTrader } from '../../../test/signal-fixtures.ts';
import { UNAVAILABLE_RETRY_AFTER_S } from '../../errors.ts';
import { accountId } from '../../modules/api/accounts.ts';
import { brokerErrorCode, retryAfterSeconds } from '../../modules/connectors/broker-error.ts';

/** What the broker throws from every call but placing (undefined: it answers). */
let failure: BrokerError | undefined;
const fail = () => {
  if (failure) throw failure;
};
const flaky = flakyBroker();
const broker: Broker = {
  ...flaky.broker,
  descriptor: {
    ...flaky.broker.descriptor,
    has: { ...flaky.broker.descriptor.has, getHoldings: true, cancelOrder: true, previewOrder: true },
  },
  async connect(ctx, input) {
    fail();
    return flaky.broker.connect(ctx, input);
  },
  async placeOrder(_ctx, _session, { clientOrderId }) {
    fail();
    return { id: `R-${clientOrderId}`, status: 'accepted', status_description: 'Resting' };
  },
  async cancelOrder() {
    fail();
  },
  async getHoldings() {
    fail();
    return { positions: [] };
  },
  async previewOrder() {
    fail();
    return { id: 'P-1', status: 'draft' };
  },
};

const rateLimited = (retryAfter?: string) =>
  new BrokerError('RateLimited', FLAKY_TITLE, 'too many requests', retryAfter ? { retryAfter } : {});
const CASES = [
  {
    name: 'its rate limit',
    error: rateLimited('7'),
    status: 429,
    retryAfter: '7',
    body: { status: 'Error', message: `${FLAKY_TITLE}: too many requests` },
  },
  {
    name: 'its rate limit without a Retry-After',
    error: rateLimited(),
    status: 429,
    retryAfter: undefined,
    body: { status: 'Error', message: `${FLAKY_TITLE}: too many requests` },
  },
  {
    name: 'its outage',
    error: new BrokerError('BrokerUnavailable', FLAKY_TITLE, 'service unavailable'),
    status: 503,
    retryAfter: String(UNAVAILABLE_RETRY_AFTER_S),
    body: { status: 'Error', message: `${FLAKY_TITLE}: service unavailable` },
  },
  {
    name: 'a call whose outcome is unknown',
    error: new BrokerError('InvalidOrder', FLAKY_TITLE, 'gateway timeout', { outcomeUnknown: true }),
    status: 503,
    retryAfter: String(UNAVAILABLE_RETRY_AFTER_S),
    body: { status: 'Error', message: `${FLAKY_TITLE}: gateway timeout` },
  },
  {
    name: 'its refusal',
    error: new BrokerError('OrderNotFound', FLAKY_TITLE, 'no such order'),
    status: 400,
    retryAfter: undefined,
    body: { status: 'ExecutionError', message: `${FLAKY_TITLE}: no such order` },
  },
];

let t: TestApp;
let trader: Awaited<ReturnType<typeof setupTrader>>;
let token: string;
beforeAll(async () => {
  t = await startTestApp({ brokers: [broker], authenticate: authenticateAsUserId });
  trader = await setupTrader(t, 'broker-errors@example.com', { provider: 'flaky', credits: 50 });
  const created = await gql<{ userTokenCreate: { secret: string } }>(
    t.app,
    'mutation { userTokenCreate(metadata: {name: "bot"}) { secret } }',
    {},
    trader.headers,
  );
  token = created.data?.userTokenCreate.secret ?? '';
});
afterAll(() => t.close());

const rest = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown, headers?: Record<string, string>) =>
  t.app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
    ...(payload ? { payload: JSON.stringify(payload) } : {}),
  });

const GRAPHQL_CODE: Record<number, string> = {
  429: 'RATE_LIMITED',
  503: 'SERVICE_UNAVAILABLE',
  400: 'EXECUTION_ERROR',
};

describe.each(CASES)('the broker answering with $name', ({ error, status, retryAfter, body }) => {
  const account = () => accountId(trader.connector.key, trader.accountId);

  it('answers cancel, positions and balances alike', async () => {
    failure = undefined;
    const placed = await rest('POST', `/api/v1/accounts/${account()}/orders`, {
      symbol: 'AAPL',
      action: 'buy',
      quantity: 1,
      type: 'limit',
      limit_price: 1,
    });
    expect(placed.statusCode, placed.body).toBe(201);
    failure = error;
    for (const [method, url] of [
      ['DELETE', `/api/v1/orders/${placed.json().id}`],
      ['GET', `/api/v1/accounts/${account()}/positions`],
      ['GET', `/api/v1/accounts/${account()}/balances`],
    ] as const) {
      const answer = await rest(method, url);
      expect({ status: answer.statusCode, body: answer.json() }, `${method} ${url}`).toEqual({ status, body });
      expect(answer.headers['retry-after'], `${method} ${url}`).toBe(retryAfter);
    }
    // Not canceled: the order still rests.
    const read = await rest('GET', `/api/v1/orders/${placed.json().id}`);
    expect(read.json()).toMatchObject({ status: 'accepted' });
  });

  // GraphQL's extensions.retryAfter: the seconds REST answers as Retry-After.
  const waitS = retryAfter === undefined ? undefined : Number(retryAfter);

  it('answers the order preview with the same code, and the same wait', async () => {
    failure = error;
    const res = await graphql(
      t,
      trader.headers,
      'mutation($connectorKey: String!, $data: String!) { orderPreview(connectorKey: $connectorKey, data: $data) }',
      { connectorKey: trader.connector.key, data: JSON.stringify({ symbol: 'AAPL', action: 'buy', quantity: 1 }) },
    );
    expect(res.error).toEqual({
      message: body.message,
      code: GRAPHQL_CODE[status],
      field: undefined,
      retryAfter: waitS,
    });
  });

  it('answers connecting with the same code', async () => {
    failure = error;
    const res = await graphql(
      t,
      trader.headers,
      'mutation { connectorActivate(providerName: "flaky", credentials: []) { key } }',
    );
    expect(res.error).toEqual({
      message: body.message,
      code: GRAPHQL_CODE[status],
      field: undefined,
      retryAfter: waitS,
    });
  });
});

describe.each(CASES)(
  'placing an order, the broker answering with $name',
  ({ name, error, status, retryAfter, body }) => {
    const unknown = error.outcomeUnknown;

    it('answers the REST API by the same mapping, the hook 400 as SPEC §8 says', async () => {
      failure = error;
      const order = { symbol: 'MSFT', action: 'buy', quantity: 1, client_id: `c-${name}` };
      const account = accountId(trader.connector.key, trader.accountId);
      const place = () => rest('POST', `/api/v1/accounts/${account}/orders`, order, { 'idempotency-key': `k-${name}` });
      const answer = await place();
      const hook = await postSignal(t, trader.shortKey, order);
      if (unknown) {
        // It may stand at the broker: accepted, its outcome looked up later, never a 5xx.
        expect([answer.statusCode, hook.statusCode]).toEqual([201, 201]);
        expect(answer.json()).toMatchObject({ status: 'pending' });
        return;
      }
      expect({ status: answer.statusCode, body: answer.json() }).toEqual({ status, body });
      expect(answer.headers['retry-after']).toBe(retryAfter);
      expect({ status: hook.statusCode, body: hook.json() }).toEqual({
        status: 400,
        body: { status: 'ExecutionError', message: body.message },
      });
      expect(hook.headers['retry-after']).toBeUndefined();

      // Sent again at once with the same Idempotency-Key (the hook: the same client_id), the
      // broker taking orders again: placed after a passing refusal (429, 503), which placed
      // nothing; a refusal that stands is answered again and places nothing.
      failure = undefined;
      const passing = status !== 400;
      const again = await place();
      const hookAgain = await postSignal(t, trader.shortKey, order);
      if (passing) {
        expect([again.statusCode, hookAgain.statusCode], again.body).toEqual([201, 201]);
        expect(again.json()).toMatchObject({ status: 'accepted', brokerOrderId: expect.stringMatching(/^R-/) });
      } else {
        expect({ status: again.statusCode, body: again.json() }).toEqual({ status, body });
        expect({ status: hookAgain.statusCode, body: hookAgain.json() }).toEqual({
          status: hook.statusCode,
          body: hook.json(),
        });
      }
      // One order each at most: the refused ones, and the retries placed after a passing refusal.
      const statuses = passing ? ['accepted', 'accepted', 'rejected', 'rejected'] : ['rejected', 'rejected'];
      await eventually(async () => {
        const { rows } = await t.services.db.$client.query<{ status: string }>(
          `select status from signals where user_id = $1 and "order"->>'client_id' = $2 order by status`,
          [trader.userId, order.client_id],
        );
        return JSON.stringify(rows.map((row) => row.status)) === JSON.stringify(statuses);
      });
    });
  },
);

describe('brokerErrorCode', () => {
  it('maps every kind, and an unknown outcome to a dependency down', () => {
    const code = (kind: BrokerError['kind'], outcomeUnknown = false) =>
      brokerErrorCode(new BrokerError(kind, 'B', 'm', { outcomeUnknown }));
    expect(
      ['InvalidOrder', 'InsufficientFunds', 'OrderNotFound', 'DuplicateOrder'].map((k) => code(k as never)),
    ).toEqual(['EXECUTION', 'EXECUTION', 'EXECUTION', 'EXECUTION']);
    expect(code('AuthenticationError')).toBe('BROKER_AUTHENTICATION');
    expect(code('RateLimited')).toBe('RATE_LIMITED');
    expect(code('BrokerUnavailable')).toBe('UNAVAILABLE');
    expect(code('InsufficientFunds', true)).toBe('UNAVAILABLE');
  });

  it('reads a Retry-After of seconds or an HTTP date as whole seconds from now', () => {
    const now = Date.parse('2026-11-27T15:00:00Z');
    expect(retryAfterSeconds('12', now)).toBe(12);
    expect(retryAfterSeconds('0', now)).toBe(1);
    expect(retryAfterSeconds('Fri, 27 Nov 2026 15:00:30 GMT', now)).toBe(30);
    expect(retryAfterSeconds('Fri, 27 Nov 2026 14:00:00 GMT', now)).toBe(1);
    expect(retryAfterSeconds('soon', now)).toBeUndefined();
    expect(retryAfterSeconds(undefined, now)).toBeUndefined();
  });
});
