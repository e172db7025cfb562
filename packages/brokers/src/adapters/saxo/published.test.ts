// Saxo's published examples (broker-specs/saxo/fixtures) against the fake and the adapter: the fake
// takes each published order as it is (the samples' AccountKey placeholder filled in, as they do
// on first use) and answers in the published shapes; the adapter reads the published accounts,
// precheck and precheck-error answers.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { brokerFailure } from '../../core/expect-failure.ts';
import { brokerSpecsPath } from '../../core/prism-mock.ts';
import { toAccounts } from './reader.ts';
import { ACCOUNT, ORDERS, toOrder, useSaxoFake } from './test-support.ts';

interface Published {
  request: { method: string; path: string; headers: Record<string, string>; body: Record<string, unknown> };
  response: { status: number; body: unknown };
}
const published = (name: string) =>
  JSON.parse(readFileSync(brokerSpecsPath('saxo', 'fixtures', `${name}.json`), 'utf8')) as Published;
/** The samples fill the AccountKey placeholder with the user's account on first use. */
const withAccount = (body: unknown): unknown =>
  JSON.parse(JSON.stringify(body).replaceAll('"(added on first request)"', JSON.stringify(ACCOUNT)));

const t = useSaxoFake({ cash: 100_000_000 });

describe('the fake takes the published orders as they are', () => {
  it.each([
    ['place-order.request', { OrderId: expect.any(String) }],
    ['place-order-futures-limit.request', { OrderId: expect.any(String) }],
    ['place-order-option.request', { OrderId: expect.any(String) }],
    ['place-order-stoplimit.request', { OrderId: expect.any(String) }],
    [
      'bracket.request',
      { OrderId: expect.any(String), Orders: [{ OrderId: expect.any(String) }, { OrderId: expect.any(String) }] },
    ],
    [
      'oco.request',
      {
        Orders: [
          { OrderId: expect.any(String), ExternalReference: 'MyOcoOrderCorrelationId1' },
          { OrderId: expect.any(String), ExternalReference: 'MyOcoOrderCorrelationId2' },
        ],
      },
    ],
    ['place-order.response', { OrderId: expect.any(String) }],
  ])('%s', async (name, answer) => {
    const session = await t.connect();
    const { request } = published(name);
    const response = await fetch(`${t.fake.origin}${request.path}`, {
      method: request.method,
      headers: {
        authorization: `Bearer ${session.secrets.accessToken}`,
        'content-type': 'application/json; charset=utf-8',
        ...(request.headers['X-Request-ID'] ? { 'x-request-id': request.headers['X-Request-ID'] } : {}),
      },
      body: JSON.stringify(withAccount(request.body)),
    });
    expect([response.status, await response.json()]).toEqual([200, answer]);
  });

  it('answers the published status, activities and cancel requests in their shapes', async () => {
    const session = await t.connect();
    const headers = { authorization: `Bearer ${session.secrets.accessToken}` };
    const placed = await t.place(
      session,
      { symbol: 'EUR/USD', action: 'buy', quantity: 100000, limit_price: 1.05 },
      'sig-pub-1',
    );
    const status = await (
      await fetch(`${t.fake.origin}/sim/openapi/port/v1/orders/${ACCOUNT}/${placed.id}`, { headers })
    ).json();
    const keys = (value: unknown) => Object.keys((value as { Data: object[] }).Data[0] ?? {}).sort();
    const guide = published('order-status.response').response.body;
    expect(keys(status)).toEqual(expect.arrayContaining(keys(guide)));
    const activities = await (
      await fetch(`${t.fake.origin}/sim/openapi/cs/v1/audit/orderactivities?OrderId=${placed.id}&EntryType=Last`, {
        headers,
      })
    ).json();
    expect(keys(activities)).toEqual(
      expect.arrayContaining(
        keys(published('order-activities.response').response.body).filter(
          (key) => !['AveragePrice', 'ExecutionPrice', 'FillAmount', 'FilledAmount', 'PositionId'].includes(key),
        ),
      ),
    );
    const cancel = published('cancel.response').request;
    const canceled = await fetch(`${t.fake.origin}${cancel.path.replace('76289286', placed.id)}`, {
      method: 'DELETE',
      headers,
    });
    expect(await canceled.json()).toEqual({ Orders: [{ OrderId: placed.id }] });
  });

  it("refuses as the published errors show: a model error, and an OCO's stop leg outside FX", async () => {
    const session = await t.connect();
    const oco = withAccount(published('oco.request').request.body) as { Orders: Array<Record<string, unknown>> };
    for (const leg of oco.Orders) Object.assign(leg, { Uic: 211, AssetType: 'Stock', Amount: 10 });
    const answer = await fetch(`${t.fake.origin}${ORDERS}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${session.secrets.accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify(oco),
    });
    expect([answer.status, await answer.json()]).toEqual([400, published('error-model-state.response').response.body]);
  });
});

describe('the adapter reads the published answers', () => {
  it('accounts: the AccountKey is the account, the ClientKey kept', () => {
    expect(toAccounts(published('accounts.response').response.body, false)).toEqual({
      accounts: [
        {
          id: ACCOUNT,
          name: 'Saxo EUR …6397',
          dataTitle: '…6397',
          dataType: 'normal',
          dataCurrency: 'EUR',
          demo: true,
        },
      ],
      clientKey: ACCOUNT,
    });
  });

  it('precheck: Ok with its estimate, or the refusal in a 200 body', async () => {
    const session = await t.connect();
    const input = {
      accountId: ACCOUNT,
      order: toOrder({ symbol: 'EUR/USD', action: 'buy', quantity: 10000 }),
      clientOrderId: 'sig-pre',
    };
    const ok = published('precheck.response').response;
    t.fake.inject({ method: 'POST', path: `${ORDERS}/precheck`, status: ok.status, body: ok.body });
    expect(await t.broker.previewOrder(t.ctx, session, input)).toEqual({
      id: 'sig-pre',
      status: 'draft',
      status_description: 'Preview, nothing placed. Estimated cash required 296.275 EUR.',
    });
    const error = published('error-precheck-semantic.response').response;
    t.fake.inject({ method: 'POST', path: `${ORDERS}/precheck`, status: error.status, body: error.body });
    const refused = await brokerFailure(t.broker.previewOrder(t.ctx, session, input));
    expect([refused.kind, refused.message]).toEqual(['InvalidOrder', 'Saxo: Instrument ID is invalid']);
  });
});
