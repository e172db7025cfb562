// WOO X through ccxt: POST /v3/trade/order (JSON, x-api-signature HMAC-SHA256), our client
// order id as a numeric clientOrderId.

import type { Order } from '@router/orders';
import { type CcxtBroker, createCcxtBroker } from '../../ccxt/broker.ts';
import { isCcxtError } from '../../ccxt/ccxt-module.ts';
import { numericId } from '../../ccxt/client-id.ts';
import { basicOrder, refuseUnless } from '../../ccxt/order-args.ts';
import type { MarketInfo } from '../../ccxt/symbols.ts';
import type { CcxtVenue, OrderArgs } from '../../ccxt/venue.ts';
import { WOO_TITLE, wooDescriptor } from './descriptor.ts';

export const wooClientId = (id: string) => numericId(id);

/** {"success": false, "code": -1012, "message": "..."} */
function readWooMessage(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const message = (body as { message?: unknown }).message;
  return typeof message === 'string' && message ? message : undefined;
}

function wooOrderArgs(order: Order, market: MarketInfo | undefined, clientOrderId: string): OrderArgs {
  const basic = basicOrder(WOO_TITLE, order);
  const { side, amount } = basic;
  refuseUnless(WOO_TITLE, order.type === 'market' || order.type === 'limit', `${order.type} orders`);
  const params: OrderArgs['params'] = { clientOrderId: wooClientId(clientOrderId) };
  if (order.type === 'market') {
    refuseUnless(
      WOO_TITLE,
      order.duration === 'gtc' || order.duration === 'ioc',
      `duration ${order.duration} on market orders`,
    );
    if (order.quantity_type === 'cash') {
      // Without the market (a check), a cash market buy is left to placing to judge.
      refuseUnless(WOO_TITLE, (market?.spot ?? true) && side === 'buy', 'cash quantity except on spot market buys');
      return { type: 'market', side, amount, params: { ...params, cost: amount } };
    }
  }
  refuseUnless(
    WOO_TITLE,
    order.quantity_type === 'fixed' || order.type === 'market',
    `quantity_type ${order.quantity_type}`,
  );
  if (order.type === 'market') return { type: 'market', side, amount, params };
  refuseUnless(WOO_TITLE, ['gtc', 'ioc', 'fok'].includes(order.duration), `duration ${order.duration}`);
  const timeInForce = order.duration === 'gtc' ? {} : { timeInForce: order.duration.toUpperCase() };
  return { type: 'limit', side, amount, price: basic.limitPrice, params: { ...params, ...timeInForce } };
}

const wooVenue: CcxtVenue = {
  descriptor: wooDescriptor,
  exchangeClass: (ccxt) => ccxt.woo,
  credentials: (values) => ({ apiKey: values.apiKey ?? '', secret: values.apiSecret ?? '' }),
  positions: true,
  // PUT /v3/trade/order (ccxt editOrder) edits an open order's quantity: a partial close cuts the exits.
  amendsQuantity: true,
  sandbox: true,
  readMessage: readWooMessage,
  orderArgs: wooOrderArgs,
  clientIdParams: (clientOrderId) => ({ clientOrderId: wooClientId(clientOrderId) }),
  async findByClientId(exchange, clientOrderId) {
    try {
      return await exchange.fetchOrder('', undefined, { clientOrderId: String(wooClientId(clientOrderId)) });
    } catch (error) {
      if (isCcxtError(error, 'OrderNotFound')) return undefined;
      throw error;
    }
  },
  async cancel(exchange, orderId) {
    const order = await exchange.fetchOrder(orderId);
    return exchange.cancelOrder(orderId, order.symbol ?? undefined);
  },
};

export function createWooBroker(): CcxtBroker {
  return createCcxtBroker(wooVenue);
}
