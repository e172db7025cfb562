// BitMEX perpetual swaps through ccxt: POST /api/v1/order (JSON, api-signature), our client
// order id as clOrdID.

import type { Order } from '@router/orders';
import { type CcxtBroker, createCcxtBroker } from '../../ccxt/broker.ts';
import { boundedId } from '../../ccxt/client-id.ts';
import { basicOrder, refuseUnless } from '../../ccxt/order-args.ts';
import type { MarketInfo } from '../../ccxt/symbols.ts';
import type { CcxtVenue, OrderArgs } from '../../ccxt/venue.ts';
import { BrokerError } from '../../core/errors.ts';
import { BITMEX_TITLE, bitmexDescriptor } from './descriptor.ts';

const TIME_IN_FORCE: Readonly<Record<string, string>> = {
  gtc: 'GoodTillCancel',
  day: 'Day',
  ioc: 'ImmediateOrCancel',
  fok: 'FillOrKill',
};

/** clOrdID: up to 36 characters. */
const bitmexClientId = (id: string) => boundedId(id, 36);

/** {"error": {"message": "...", "name": "HTTPError"}} */
function readBitmexMessage(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const error = (body as { error?: { message?: unknown } }).error;
  return typeof error?.message === 'string' && error.message ? error.message : undefined;
}

function bitmexOrderArgs(order: Order, market: MarketInfo | undefined, clientOrderId: string): OrderArgs {
  const basic = basicOrder(BITMEX_TITLE, order);
  // Without the market (a check), whether it is a swap is left to placing.
  if (market) refuseUnless(BITMEX_TITLE, market.swap, `${market.symbol} (only perpetual swaps)`);
  refuseUnless(BITMEX_TITLE, order.quantity_type === 'fixed', `quantity_type ${order.quantity_type}`);
  const timeInForce = TIME_IN_FORCE[order.duration];
  refuseUnless(BITMEX_TITLE, timeInForce !== undefined, `duration ${order.duration}`);
  const params: OrderArgs['params'] = { clOrdID: bitmexClientId(clientOrderId), timeInForce: timeInForce ?? '' };
  const { side, amount } = basic;
  switch (order.type) {
    case 'market':
      return { type: 'market', side, amount, params };
    case 'limit':
      return { type: 'limit', side, amount, price: basic.limitPrice, params };
    case 'stop':
      return { type: 'Stop', side, amount, params: { ...params, triggerPrice: basic.stopPrice ?? 0 } };
    case 'stop_limit':
      return {
        type: 'StopLimit',
        side,
        amount,
        price: basic.limitPrice,
        params: { ...params, triggerPrice: basic.stopPrice ?? 0 },
      };
  }
}

const bitmexVenue: CcxtVenue = {
  descriptor: bitmexDescriptor,
  exchangeClass: (ccxt) => ccxt.bitmex,
  credentials: (values) => ({ apiKey: values.apiKey ?? '', secret: values.apiSecret ?? '' }),
  currencies: true,
  positions: true,
  defaultKind: 'swap',
  // PUT /api/v1/order amends an open order's orderQty (swagger: "Amend the quantity or price of an open order").
  amendsQuantity: true,
  sandbox: true,
  // ccxt tags orders with text "CCXT" by default; ours say where they came from.
  options: { brokerId: 'signal-router' },
  readMessage: readBitmexMessage,
  orderArgs: bitmexOrderArgs,
  clientIdParams: (clientOrderId) => ({ clOrdID: bitmexClientId(clientOrderId) }),
  // DELETE /order answers 200 with an entry per order; one it did not cancel says why in `error`
  // ("Not Found"), where ccxt throws only for "Unable to cancel order due to existing state".
  async cancel(exchange, orderId) {
    const order = await exchange.cancelOrder(orderId);
    const error = (order.info as { error?: unknown } | undefined)?.error;
    if (typeof error === 'string' && error) throw new BrokerError('OrderNotFound', BITMEX_TITLE, error);
    return order;
  },
  async findByClientId(exchange, clientOrderId) {
    const filter = { clOrdID: bitmexClientId(clientOrderId) };
    const orders = await exchange.fetchOrders(undefined, undefined, undefined, { filter, reverse: true });
    return orders.find((order) => order.clientOrderId === filter.clOrdID);
  },
};

export function createBitmexBroker(): CcxtBroker {
  return createCcxtBroker(bitmexVenue);
}
