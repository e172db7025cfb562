// The fake's order routes (WIRE.md §4–§7): preview (PreviewIds), place (the same request plus
// those PreviewIds, or 101), a change (the same two steps under …/orders/{orderId}/change/, the
// order replaced by a new one), the orders list (MMDDYYYY dates, status and symbol filters, 204 when
// empty, marker/next pages of at most 100), one order, and cancel (CANCEL_REQUESTED, read back as
// CANCELLED). Errors are {"Error":{"code","message"}}.
import { isDeepStrictEqual } from 'node:util';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { nextEasternMidnight } from './eastern.ts';
import {
  checkOrderRequest,
  type FakeAccount,
  type FakeOrder,
  FakeRefusal,
  fillOrder,
  list,
  orderCost,
  record,
} from './fake-book.ts';
import { orderView } from './fake-views.ts';

type Json = Record<string, unknown>;
/** Orders still working: open, or open with part executed. */
const WORKING = new Set(['OPEN', 'INDIVIDUAL_FILLS']);

/** How long a preview may be placed (E*TRADE does not say; "minutes, in practice"). */
export const PREVIEW_TTL_MS = 3 * 60_000;
const STALE_PREVIEW =
  'For your protection, we have timed out your original order request. If you would like to place this order, please resubmit it now.';
const MARKET_HOURS = '200|Your order was successfully entered during market hours.';

interface Preview {
  accountIdKey: string;
  request: Json;
  at: number;
}

export interface OrderState {
  orders: FakeOrder[];
  now: () => number;
  quote: (product: Json | undefined) => number;
  accountOf: (request: FastifyRequest) => FakeAccount;
  refuse: (reply: FastifyReply, error: unknown) => unknown;
}

/** "06092026" → when that New York day starts (or, for `to`, ends). */
function dayEdge(text: unknown, edge: 'from' | 'to'): number | undefined {
  if (text === undefined) return undefined;
  const match = /^(\d{2})(\d{2})(\d{4})$/.exec(String(text));
  if (!match) throw new FakeRefusal(400, 1002, `invalid date ${String(text)}: use MMDDYYYY`);
  // Noon UTC the day before is still that day before in New York: its next midnight starts the day.
  const start = nextEasternMidnight(Date.UTC(Number(match[3]), Number(match[1]) - 1, Number(match[2]) - 1, 12));
  return edge === 'from' ? start : nextEasternMidnight(start + 3_600_000);
}

export function registerOrderRoutes(app: FastifyInstance, state: OrderState): void {
  const { orders, now, quote, accountOf, refuse } = state;
  const previews = new Map<number, Preview>();
  let nextPreviewId = 1_627_181_131;
  let nextOrderId = Math.max(96, ...orders.map((order) => order.orderId)) + 1;
  const handle =
    (work: (request: FastifyRequest, reply: FastifyReply, account: FakeAccount) => unknown) =>
    async (request: FastifyRequest, reply: FastifyReply) => {
      try {
        return await work(request, reply, accountOf(request));
      } catch (error) {
        return refuse(reply, error);
      }
    };
  const echo = (order: Json) => ({
    ...order,
    Instrument: list(order.Instrument).map((instrument) => ({
      symbolDescription: String(record(instrument.Product)?.symbol),
      ...instrument,
      cancelQuantity: 0,
      reserveOrder: true,
      reserveQuantity: 0,
    })),
    estimatedCommission: 0,
    estimatedTotalAmount: orderCost(order, quote),
    messages: { Message: [{ description: MARKET_HOURS, code: 1026, type: 'WARNING' }] },
    egQual: order.priceType === 'MARKET' ? 'EG_QUAL_QUALIFIED' : 'EG_QUAL_NOT_A_MARKET_ORDER',
    netPrice: 0,
    netBid: 0,
    netAsk: 0,
    gcd: 0,
    ratio: '',
  });

  const previewed = (request: FastifyRequest, account: FakeAccount) => {
    const body = record(record(request.body)?.PreviewOrderRequest);
    const order = checkOrderRequest(body);
    if (orderCost(order, quote) > account.cash) {
      throw new FakeRefusal(400, 1041, 'You do not have enough buying power for this trade.');
    }
    const previewId = nextPreviewId++;
    previews.set(previewId, { accountIdKey: account.accountIdKey, request: body ?? {}, at: now() });
    return {
      PreviewOrderResponse: {
        orderType: body?.orderType,
        totalOrderValue: orderCost(order, quote),
        previewTime: now(),
        dstFlag: false,
        accountId: account.accountId,
        optionLevelCd: 2,
        marginLevelCd: account.accountMode === 'MARGIN' ? 'MARGIN_TRADING_ALLOWED' : 'MARGIN_TRADING_NOT_ALLOWED',
        Order: [echo(order)],
        PreviewIds: [{ previewId }],
      },
    };
  };

  /** A place, or with `replaces` the place of a change: that order is canceled, replaced by the new one. */
  const placing = (request: FastifyRequest, account: FakeAccount, replaces?: FakeOrder) => {
    const { PreviewIds, ...body } = record(record(request.body)?.PlaceOrderRequest) ?? {};
    const order = checkOrderRequest(body);
    const previewId = Number(list(PreviewIds)[0]?.previewId);
    const preview = previews.get(previewId);
    if (!preview || preview.accountIdKey !== account.accountIdKey || !isDeepStrictEqual(preview.request, body)) {
      throw new FakeRefusal(400, 101, '{com.etrade.api.v1.order.InvalidPreviewId}');
    }
    previews.delete(previewId);
    if (now() - preview.at > PREVIEW_TTL_MS) throw new FakeRefusal(400, 101, STALE_PREVIEW);
    const clientOrderId = String(body.clientOrderId);
    if (orders.some((item) => item.accountIdKey === account.accountIdKey && item.clientOrderId === clientOrderId)) {
      throw new FakeRefusal(400, 1037, `Duplicate order: client order id ${clientOrderId} was already used.`);
    }
    if (replaces) {
      if (!WORKING.has(replaces.status))
        throw new FakeRefusal(400, 5001, `Order ${replaces.orderId} cannot be changed.`);
      replaces.status = 'CANCELLED';
    }
    const placed: FakeOrder = {
      orderId: nextOrderId++,
      accountIdKey: account.accountIdKey,
      orderType: String(body.orderType),
      clientOrderId,
      placedTime: now(),
      status: 'OPEN',
      order,
      placed: true,
    };
    if (order.priceType === 'MARKET') {
      placed.fills = fillOrder(account, order, quote);
      placed.status = 'EXECUTED';
      placed.executedTime = now();
    }
    orders.push(placed);
    return {
      PlaceOrderResponse: {
        orderType: placed.orderType,
        dstFlag: false,
        optionLevelCd: 2,
        marginLevelCd: account.accountMode === 'MARGIN' ? 'MARGIN_TRADING_ALLOWED' : 'MARGIN_TRADING_NOT_ALLOWED',
        placedTime: placed.placedTime,
        accountId: account.accountId,
        Order: [echo(order)],
        OrderIds: [{ orderId: placed.orderId }],
      },
    };
  };
  /** The open order a change names (PUT …/orders/{orderId}/change/preview|place). */
  const changed = (request: FastifyRequest, account: FakeAccount) => {
    const orderId = Number((request.params as { id: string }).id);
    const order = orders.find((item) => item.accountIdKey === account.accountIdKey && item.orderId === orderId);
    if (!order) throw new FakeRefusal(400, 5001, `Order ${orderId} was not found.`);
    if (!WORKING.has(order.status)) throw new FakeRefusal(400, 5001, `Order ${orderId} cannot be changed.`);
    return order;
  };

  app.post(
    '/v1/accounts/:key/orders/preview.json',
    handle((request, _reply, account) => previewed(request, account)),
  );
  app.post(
    '/v1/accounts/:key/orders/place.json',
    handle((request, _reply, account) => placing(request, account)),
  );
  app.put(
    '/v1/accounts/:key/orders/:id/change/preview',
    handle((request, _reply, account) => {
      changed(request, account);
      return previewed(request, account);
    }),
  );
  app.put(
    '/v1/accounts/:key/orders/:id/change/place',
    handle((request, _reply, account) => placing(request, account, changed(request, account))),
  );

  const settle = (order: FakeOrder) => {
    // Cancellation is a request: the order reads CANCELLED once E*TRADE has processed it.
    if (order.status === 'CANCEL_REQUESTED') order.status = 'CANCELLED';
    return order;
  };
  const origin = (request: FastifyRequest) => `http://${request.headers.host}`;

  app.get(
    '/v1/accounts/:key/orders.json',
    handle((request, reply, account) => {
      const query = request.query as Record<string, string | undefined>;
      const count = query.count === undefined ? 25 : Number(query.count);
      if (!Number.isInteger(count) || count < 1 || count > 100)
        throw new FakeRefusal(400, 1002, 'count must be 1 to 100');
      const from = dayEdge(query.fromDate, 'from');
      const to = dayEdge(query.toDate, 'to');
      const matching = orders
        .filter((order) => order.accountIdKey === account.accountIdKey)
        .map(settle)
        .filter(
          (order) => (from === undefined || order.placedTime >= from) && (to === undefined || order.placedTime < to),
        )
        .filter((order) => !query.status || order.status === query.status)
        .filter(
          (order) =>
            !query.symbol || list(order.order.Instrument).some((item) => record(item.Product)?.symbol === query.symbol),
        )
        .sort((a, b) => b.orderId - a.orderId);
      const start = Number(query.marker ?? 0);
      const page = matching.slice(start, start + count);
      if (page.length === 0) return reply.code(204).send();
      const more = start + count < matching.length;
      return {
        OrdersResponse: {
          ...(more ? { marker: String(start + count), next: `${origin(request)}${request.url}` } : {}),
          Order: page.map((order) => orderView(order, origin(request))),
        },
      };
    }),
  );

  app.get(
    '/v1/accounts/:key/orders/:id',
    handle((request, _reply, account) => {
      const { id } = request.params as { id: string };
      const orderId = Number(/^(\d+)\.json$/.exec(id)?.[1]);
      const order = orders.find((item) => item.accountIdKey === account.accountIdKey && item.orderId === orderId);
      if (!order) throw new FakeRefusal(404, 1004, 'Order not found.');
      return { OrdersResponse: { Order: [orderView(settle(order), origin(request))] } };
    }),
  );

  app.put(
    '/v1/accounts/:key/orders/cancel.json',
    handle((request, _reply, account) => {
      const orderId = Number(record(record(request.body)?.CancelOrderRequest)?.orderId);
      const order = orders.find((item) => item.accountIdKey === account.accountIdKey && item.orderId === orderId);
      if (!order) throw new FakeRefusal(400, 5001, `Order ${orderId} was not found.`);
      if (!WORKING.has(order.status)) throw new FakeRefusal(400, 5001, `Order ${orderId} cannot be cancelled.`);
      order.status = 'CANCEL_REQUESTED';
      return {
        CancelOrderResponse: {
          accountId: account.accountId,
          orderId,
          cancelTime: now(),
          Messages: {
            Message: [
              { code: 5011, description: '200|Your request to cancel your order is being processed.', type: 'WARNING' },
            ],
          },
        },
      };
    }),
  );
}
