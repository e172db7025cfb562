// E*TRADE's published examples (broker-specs/etrade/fixtures) against the fake and the adapter:
// the fake takes each published request as it is (signed with a real session) and answers in
// the published shapes; the adapter reads the published preview and accounts answers.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { brokerSpecsPath } from '../../core/prism-mock.ts';
import { publishedOrders } from './fake.ts';
import { toAccounts } from './reader.ts';
import { ACCOUNT, toOrder, useEtradeFake } from './test-support.ts';

/** A published example: the request and the answer (each file has one or both). */
interface Published {
  request: { method: string; path: string; body?: Record<string, unknown> };
  response: { status: number; body: unknown };
}
const published = (name: string) =>
  JSON.parse(readFileSync(brokerSpecsPath('etrade', 'fixtures', `${name}.json`), 'utf8')) as Published;
const keysOf = (value: unknown): string[] =>
  value && typeof value === 'object' && !Array.isArray(value)
    ? Object.entries(value).flatMap(([key, inner]) => [key, ...keysOf(inner).map((k) => `${key}.${k}`)])
    : Array.isArray(value)
      ? keysOf(value[0])
      : [];

const t = useEtradeFake({ orders: publishedOrders() });

describe('the fake takes the published requests as they are', () => {
  it('previews, places with the preview’s PreviewIds and cancels as the guide does', async () => {
    const session = await t.connect();
    for (const name of ['preview-order-option.request', 'preview-order.request']) {
      const { request } = published(name);
      const answer = await t.signed(session, request.method, request.path, request.body);
      expect(answer.status).toBe(200);
      const body = (await answer.json()) as { PreviewOrderResponse: { PreviewIds: unknown[] } };
      const shape = published('preview-order.response').response.body;
      expect(keysOf(body)).toEqual(expect.arrayContaining(keysOf(shape)));
      if (name === 'preview-order.request') {
        const place = published('place-order.request').request;
        const placeBody = {
          PlaceOrderRequest: {
            ...(place.body?.PlaceOrderRequest as object),
            PreviewIds: body.PreviewOrderResponse.PreviewIds,
          },
        };
        const placed = await t.signed(session, place.method, place.path, placeBody);
        expect(placed.status).toBe(200);
        expect(keysOf(await placed.json())).toEqual(
          expect.arrayContaining(keysOf(published('place-order.response').response.body)),
        );
      }
    }
    const cancel = published('cancel.request').request;
    const canceled = await t.signed(session, cancel.method, cancel.path, cancel.body);
    const { CancelOrderResponse: answer } = (await canceled.json()) as { CancelOrderResponse: Record<string, unknown> };
    const { CancelOrderResponse: guide } = published('cancel.response').response.body as typeof answer;
    expect(keysOf(answer)).toEqual(keysOf(guide));
    expect({ ...answer, cancelTime: 0 }).toEqual({ ...(guide as object), cancelTime: 0 });
  });

  it('lists the published orders in the published shape', async () => {
    const session = await t.connect();
    const answer = await t.signed(
      session,
      'GET',
      `/v1/accounts/${ACCOUNT}/orders.json?fromDate=06092026&toDate=06092026`,
    );
    const listed = (await answer.json()) as { OrdersResponse: { Order: Array<{ orderId: number; details: string }> } };
    const expected = published('orders.response').response.body as typeof listed;
    const guide = listed.OrdersResponse.Order.slice(-2);
    expect(guide.map((order) => order.orderId)).toEqual([96, 95]);
    expect(keysOf(guide[0])).toEqual(keysOf(expected.OrdersResponse.Order[0]));
    expect(guide[0]?.details).toBe(`${t.fake.baseUrl}/v1/accounts/${ACCOUNT}/orders/96.json`);
  });

  it('refuses what the guide says it refuses: another account key (100), a place without its preview (101)', async () => {
    const session = await t.connect();
    const preview = published('preview-order.request').request;
    const elsewhere = await t.signed(session, 'POST', '/v1/accounts/notMine/orders/preview.json', preview.body);
    expect([elsewhere.status, await elsewhere.json()]).toEqual([
      400,
      published('error-account-key.response').response.body,
    ]);
    const place = published('place-order.request').request;
    const unpreviewed = await t.signed(session, 'POST', place.path, place.body);
    expect(await unpreviewed.json()).toEqual({
      Error: { code: 101, message: '{com.etrade.api.v1.order.InvalidPreviewId}' },
    });
  });
});

describe('the adapter reads the published answers', () => {
  it('accounts: the accountIdKey is the account', () => {
    expect(toAccounts(published('accounts.response').response.body, false)).toEqual([
      {
        id: 'dBZOKt9xDrtRSAOl4MSiiA',
        name: 'E*TRADE individual …5821',
        dataTitle: '…5821',
        dataType: 'margin',
        dataCurrency: 'USD',
        demo: false,
      },
    ]);
  });

  it('preview: the estimate and message of the published answer', async () => {
    const session = await t.connect();
    const { response } = published('preview-order.response');
    t.fake.inject({ method: 'POST', path: /preview\.json$/, status: response.status, body: response.body });
    const preview = await t.broker.previewOrder(t.ctx, session, {
      accountId: ACCOUNT,
      order: toOrder({ symbol: 'AAPL', action: 'buy', quantity: 100, limit_price: 175.25, duration: 'day' }),
      clientOrderId: 'sig20260609x0001',
    });
    expect(preview).toEqual({
      id: 'sig20260609x0001',
      status: 'draft',
      status_description:
        'Preview, nothing placed. Estimated total 17525. E*TRADE: Your order was successfully entered during market hours.',
    });
  });
});
