// Contract: every order the descriptor claims (fixtures/requests.json; the exact bodies are
// checked by core/replay.test.ts) is accepted by Prism serving Alpaca's published (patched) spec.
import { normalizeOrderOrThrow, type Order } from '@router/orders';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrokerContext, BrokerSession } from '../../core/broker.ts';
import { type PrismMock, startPrismMock, validatingSpec, type WireRequest } from '../../core/prism-mock.ts';
import { PUBLISHED_AT, type RequestCase, readFixtures } from '../../core/replay.ts';
import { createAlpacaBroker } from './adapter.ts';
import { alpacaDescriptor } from './descriptor.ts';
import { type FakeAlpaca, type RecordedRequest, startFakeAlpaca } from './fake.ts';

const CASES = readFixtures<RequestCase>('alpaca', 'requests.json')?.placeOrder ?? [];

const broker = createAlpacaBroker();
const spec = validatingSpec('alpaca.yaml');
let fake: FakeAlpaca;
let prism: PrismMock | undefined;
let ctx: BrokerContext;
let session: BrokerSession;

beforeAll(async () => {
  [fake, prism] = await Promise.all([startFakeAlpaca({ cash: 10_000_000 }), startPrismMock(spec)]);
  ctx = { baseUrl: fake.url };
  session = await broker.connect(ctx, { credentials: fake.keys });
}, 60_000);

afterAll(async () => {
  await Promise.all([fake?.close(), prism?.close()]);
});

// Read as of when the fixtures' examples were current: their options expire in 2024.
const order = (signal: Record<string, unknown>): Order =>
  normalizeOrderOrThrow(signal, { provider: alpacaDescriptor, now: PUBLISHED_AT });

function replayable(recorded: RecordedRequest): WireRequest {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(recorded.headers)) {
    if (typeof value === 'string' && !['host', 'content-length', 'connection'].includes(name)) headers[name] = value;
  }
  return { method: recorded.method, url: recorded.url, headers, body: recorded.body };
}

describe('Alpaca orders on the wire', () => {
  it.each(CASES)('$description', async ({ input: { signal = {} } }) => {
    const clientOrderId = `sig-${crypto.randomUUID()}`;
    const before = fake.submissions().length;
    const response = await broker.placeOrder(ctx, session, {
      accountId: session.accounts[0]?.id ?? '',
      order: order(signal),
      clientOrderId,
    });
    const sent = fake.submissions().slice(before);
    expect(sent).toHaveLength(1);
    const recorded = sent[0] as RecordedRequest;
    expect(JSON.parse(recorded.body)).toMatchObject({ client_order_id: clientOrderId });
    expect(recorded.headers['content-type']).toBe('application/json');
    expect(response.status).toBe('accepted');
    expect(response.id).toMatch(/^[0-9a-f-]{36}$/);
    if (prism) {
      const verdict = await prism.check(replayable(recorded));
      expect(verdict.violations.filter((v) => v.location[0] === 'request')).toEqual([]);
      expect(verdict.accepted).toBe(true);
    }
  });

  it('the table covers every class, type, duration and quantity type the descriptor claims', () => {
    const orders = CASES.map((c) => order(c.input.signal ?? {}));
    const { reference } = alpacaDescriptor;
    for (const [parameter, seen] of [
      ['class', orders.map((o) => o.class)],
      ['type', orders.map((o) => o.type)],
      ['duration', orders.map((o) => o.duration)],
    ] as const) {
      expect(new Set(seen)).toEqual(new Set(reference[parameter]?.values));
    }
    const actions = new Set(orders.map((o) => o.action));
    for (const action of reference.action?.values ?? [])
      if (action !== 'close' && action !== 'cancel') expect(actions).toContain(action);
    expect(new Set(orders.map((o) => o.quantity_type))).toEqual(new Set(['fixed', 'cash']));
  });

  it('Prism refuses a wrong body (the verdict is read, not assumed)', async () => {
    // Any order will do; this one may run first (--sequence.shuffle).
    await broker.placeOrder(ctx, session, {
      accountId: session.accounts[0]?.id ?? '',
      order: order({ symbol: 'AAPL', action: 'buy', quantity: 1 }),
      clientOrderId: `sig-${crypto.randomUUID()}`,
    });
    const request = replayable(fake.submissions().at(-1) as RecordedRequest);
    const wrong = { ...JSON.parse(request.body ?? '{}'), time_in_force: 'good_till_friday' };
    const verdict = await prism?.check({ ...request, body: JSON.stringify(wrong) });
    expect(verdict?.accepted).toBe(false);
    expect(verdict?.violations[0]?.location).toEqual(['request', 'body', 'time_in_force']);
  });

  it('the adapter reads the answer of the published spec', async () => {
    const response = await broker.placeOrder({ baseUrl: prism?.url ?? '' }, session, {
      accountId: session.accounts[0]?.id ?? '',
      order: order({ symbol: 'AAPL', action: 'buy', quantity: 1 }),
      clientOrderId: 'sig-prism-1',
    });
    expect(response).toMatchObject({ id: expect.any(String), status: expect.any(String) });
  });
});
