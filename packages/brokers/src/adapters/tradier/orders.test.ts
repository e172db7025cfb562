// Contract: every order the descriptor claims (fixtures/requests.json; the exact forms are checked
// by core/replay.test.ts) goes form-encoded with the Bearer token, JSON asked for; previews send
// the same form with preview=true.
import { normalizeOrderOrThrow, type Order } from '@router/orders';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrokerContext, BrokerSession } from '../../core/broker.ts';
import type { RecordedRequest } from '../../core/fake-server.ts';
import { PUBLISHED_AT, type RequestCase, readFixtures } from '../../core/replay.ts';
import { createTradierBroker } from './adapter.ts';
import { tradierDescriptor } from './descriptor.ts';
import { type FakeTradier, startFakeTradier } from './fake.ts';
import { toTradierForm } from './mapper.ts';

const CASES = readFixtures<RequestCase>('tradier', 'requests.json')?.placeOrder ?? [];

const broker = createTradierBroker();
let fake: FakeTradier;
let ctx: BrokerContext;
let session: BrokerSession;
let accountId: string;

beforeAll(async () => {
  fake = await startFakeTradier({ cash: 10_000_000 });
  ctx = { baseUrl: fake.url };
  session = await broker.connect(ctx, { credentials: { accessToken: fake.token } });
  accountId = session.accounts[0]?.id ?? '';
});
afterAll(() => fake.close());

const order = (signal: Record<string, unknown>): Order =>
  // Read as of when the fixtures' examples were current: their options expire in January 2024.
  normalizeOrderOrThrow(signal, { provider: tradierDescriptor, now: PUBLISHED_AT });
const formOf = (request: RecordedRequest) => Object.fromEntries(new URLSearchParams(request.body));

describe('Tradier orders on the wire', () => {
  it.each(CASES)('$description', async ({ input: { signal = {} } }) => {
    const clientOrderId = `sig-${crypto.randomUUID()}`;
    const before = fake.submissions().length;
    const response = await broker.placeOrder(ctx, session, { accountId, order: order(signal), clientOrderId });
    const sent = fake.submissions().slice(before);
    expect(sent).toHaveLength(1);
    const request = sent[0] as RecordedRequest;
    expect(request.url).toBe(`/v1/accounts/${accountId}/orders`);
    expect(request.headers).toMatchObject({
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Bearer ${fake.token}`,
      accept: 'application/json',
    });
    expect(formOf(request)).toMatchObject({ tag: clientOrderId });
    expect(response).toEqual({
      id: expect.stringMatching(/^\d+$/),
      status: 'accepted',
      status_description: 'Order received by Tradier',
    });
  });

  it('prices go on the tick, never past the trader’s side: a buy’s down, a sell’s up, stops alike', () => {
    const form = (signal: Record<string, unknown>) => toTradierForm(order(signal), undefined);
    const sell = { symbol: 'AAPL', action: 'sell', quantity: 1, type: 'stop_limit' };
    // A sell's stop of 100.004 to the nearest cent (100.00) fell under its limit of 100.001 → 100.01.
    expect(form({ ...sell, stop_price: 100.004, limit_price: 100.001 })).toMatchObject({
      stop: '100.01',
      price: '100.01',
    });
    expect(form({ symbol: 'AAPL', action: 'buy', quantity: 1, type: 'stop', stop_price: 187.456 })).toMatchObject({
      stop: '187.45',
    });
    expect(form({ symbol: 'AAPL', action: 'buy', quantity: 1, type: 'limit', limit_price: 0.123456 })).toMatchObject({
      price: '0.1234',
    });
    expect(form({ symbol: 'AAPL', action: 'buy', quantity: 1, type: 'limit', limit_price: 185.1 })).toMatchObject({
      price: '185.1',
    });
    expect(
      form({ symbol: 'SPY240119C00450000', action: 'sell_to_close', quantity: 1, type: 'stop', stop_price: 2.153 }),
    ).toMatchObject({ stop: '2.16' });
    // A spread's net: a debit paid no more than asked (down), a credit received no less (up).
    const spread = (net: number) =>
      form({
        legs: [
          { symbol: 'SPY240119C00450000', action: 'buy_to_open' },
          { symbol: 'SPY240119C00460000', action: 'sell_to_open' },
        ],
        quantity: 1,
        type: 'limit',
        limit_price: net,
      });
    expect(spread(1.205)).toMatchObject({ type: 'debit', price: '1.2' });
    expect(spread(-0.805)).toMatchObject({ type: 'credit', price: '0.81' });
  });

  it('the table covers every class, type, duration and action the descriptor claims', () => {
    const orders = CASES.map((c) => order(c.input.signal ?? {}));
    const { reference } = tradierDescriptor;
    expect(new Set(orders.map((o) => o.class))).toEqual(new Set(reference.class?.values));
    expect(new Set(orders.map((o) => o.type))).toEqual(new Set(reference.type?.values));
    expect(new Set(orders.map((o) => o.duration))).toEqual(new Set(reference.duration?.values));
    const actions = new Set(orders.flatMap((o) => [o.action, ...(o.legs ?? []).map((leg) => leg.action)]));
    for (const action of reference.action?.values ?? [])
      if (action !== 'close' && action !== 'cancel') expect(actions).toContain(action);
    expect(orders.some((o) => o.group === 'combo' && o.legs)).toBe(true);
  });

  it('previews send the same form with preview=true and place nothing', async () => {
    const placed = fake.orders.length;
    const [first] = CASES;
    const preview = await broker.previewOrder(ctx, session, {
      accountId,
      order: order(first?.input.signal ?? {}),
      clientOrderId: 'sig_preview.1',
    });
    expect(preview).toEqual({
      id: 'sig-preview-1',
      status: 'draft',
      status_description: 'Preview, nothing placed: cost 1000, commission 0',
    });
    expect(formOf(fake.submissions().at(-1) as RecordedRequest)).toEqual({
      ...([first?.output].flat()[0]?.body as Record<string, string>),
      tag: 'sig-preview-1',
      preview: 'true',
    });
    expect(fake.orders.length).toBe(placed);
  });
});
