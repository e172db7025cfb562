// Webull's order-query limit (WIRE.md §9: 2 per 2 s per app key), at its real window: the fake
// refuses the third query within 2 s with 429, as Webull does.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findOrder } from '../../core/find-order.ts';
import { ORDER_QUERY_WINDOW_MS } from './query-pacing.ts';
import { type Connected, connected, input, STOCKS } from './test-support.ts';

let c: Connected;
beforeAll(async () => {
  const window = { orderQueryWindowMs: ORDER_QUERY_WINDOW_MS };
  c = await connected(window, window);
});
afterAll(() => c.fake.close());

describe('order queries', () => {
  it('five looked up at once (the fill follower, reconciliation) are all answered, none refused 429', async () => {
    const ids = ['sigPace1', 'sigPace2', 'sigPace3', 'sigPace4', 'sigPace5'];
    for (const id of ids) {
      await c.broker.placeOrder(
        c.ctx,
        c.session,
        input({ symbol: 'AAPL', action: 'buy', quantity: 1, limit_price: 1 }, id),
      );
    }
    const found = await Promise.all(
      ids.map((clientOrderId) => findOrder(c.broker, c.ctx, c.session, { accountId: STOCKS, clientOrderId })),
    );
    expect(found.map((result) => result.match)).toEqual(['exact', 'exact', 'exact', 'exact', 'exact']);
    const queries = c.fake.requests.filter((r) => r.url.startsWith('/openapi/trade/order/detail'));
    // Each asked once: none was refused and asked again.
    expect(queries).toHaveLength(5);
  });
});
