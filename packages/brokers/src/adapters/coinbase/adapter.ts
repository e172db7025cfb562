// Coinbase Advanced Trade spot through ccxt: POST /api/v3/brokerage/orders (JSON, Bearer ES256
// JWT), our client order id as client_order_id.

import type { Order } from '@router/orders';
import type { Exchange } from 'ccxt';
import { type CcxtBroker, createCcxtBroker } from '../../ccxt/broker.ts';
import { boundedId } from '../../ccxt/client-id.ts';
import { basicOrder, refuseUnless } from '../../ccxt/order-args.ts';
import type { MarketInfo } from '../../ccxt/symbols.ts';
import type { CcxtVenue, OrderArgs } from '../../ccxt/venue.ts';
import { decimalString } from '../../core/json-read.ts';
import { COINBASE_TITLE, coinbaseDescriptor } from './descriptor.ts';

const coinbaseClientId = (id: string) => boundedId(id, 128, /^[\x21-\x7e]+$/);

/** {"error": "...", "message": "...", "error_details": "..."} (ccxt keeps only the message). */
function readCoinbaseMessage(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const record = body as { message?: unknown; error_response?: { message?: unknown } };
  const message = record.error_response?.message ?? record.message;
  return typeof message === 'string' && message ? message : undefined;
}

const marketBuy = (base_size: string) => ({ market_market_ioc: { base_size } });

/**
 * A market buy of coins as ccxt writes a sell's size: cut to the product's base_increment (within
 * the lot check's tolerance: 1000.4 SHIB is 1000), which Coinbase refuses to be finer than.
 */
function onLot(exchange: Exchange, market: MarketInfo, args: OrderArgs): OrderArgs {
  if (!args.params.order_configuration) return args;
  let size: string | undefined;
  try {
    size = exchange.amountToPrecision(market.symbol, args.amount);
  } catch {}
  // A size ccxt cannot write is left as it is: the lot check refuses it.
  if (!size) return args;
  const order_configuration = marketBuy(size);
  return { ...args, params: { ...args.params, order_configuration } };
}

function coinbaseOrderArgs(order: Order, clientOrderId: string): OrderArgs {
  const basic = basicOrder(COINBASE_TITLE, order);
  const { side, amount } = basic;
  // ccxt makes up its own client_order_id unless the raw field is given.
  const params: OrderArgs['params'] = { client_order_id: coinbaseClientId(clientOrderId) };
  refuseUnless(COINBASE_TITLE, ['market', 'limit', 'stop_limit'].includes(order.type), `${order.type} orders`);
  const cash = order.quantity_type === 'cash';
  refuseUnless(COINBASE_TITLE, cash || order.quantity_type === 'fixed', `quantity_type ${order.quantity_type}`);
  refuseUnless(
    COINBASE_TITLE,
    !cash || (order.type === 'market' && side === 'buy'),
    'cash quantity except on market buys',
  );
  if (order.type === 'market') {
    refuseUnless(
      COINBASE_TITLE,
      order.duration === 'gtc' || order.duration === 'ioc',
      `duration ${order.duration} on market orders`,
    );
    if (cash) return { type: 'market', side, amount, params: { ...params, cost: amount } };
    // ccxt sends quote_size for every market buy; a fixed quantity is base_size (on the lot: onMarket).
    if (side === 'sell') return { type: 'market', side, amount, params };
    const order_configuration = marketBuy(decimalString(amount));
    return {
      type: 'market',
      side,
      amount,
      params: { ...params, createMarketBuyOrderRequiresPrice: false, order_configuration },
    };
  }
  if (order.type === 'stop_limit') {
    refuseUnless(COINBASE_TITLE, order.duration === 'gtc', `duration ${order.duration} on stop_limit orders`);
    // A buy stop triggers as the price rises through it, a sell stop as it falls.
    const stop_direction = side === 'buy' ? 'STOP_DIRECTION_STOP_UP' : 'STOP_DIRECTION_STOP_DOWN';
    return {
      type: 'limit',
      side,
      amount,
      price: basic.limitPrice,
      params: { ...params, triggerPrice: basic.stopPrice, stop_direction },
    };
  }
  const timeInForce = { gtc: 'GTC', ioc: 'IOC', fok: 'FOK' }[order.duration as 'gtc' | 'ioc' | 'fok'];
  refuseUnless(COINBASE_TITLE, timeInForce !== undefined, `duration ${order.duration}`);
  return {
    type: 'limit',
    side,
    amount,
    price: basic.limitPrice,
    params: { ...params, timeInForce: timeInForce ?? 'GTC' },
  };
}

const coinbaseVenue: CcxtVenue = {
  descriptor: coinbaseDescriptor,
  exchangeClass: (ccxt) => ccxt.coinbase,
  credentials: (values) => ({
    apiKey: values.apiKeyName ?? '',
    secret: (values.privateKey ?? '').replace(/\\n/g, '\n'),
  }),
  options: { fetchBalance: 'v3PrivateGetBrokerageAccounts' },
  readMessage: readCoinbaseMessage,
  orderArgs: (order, _market, clientOrderId) => coinbaseOrderArgs(order, clientOrderId),
  onMarket: onLot,
  clientIdParams: (clientOrderId) => ({ client_order_id: coinbaseClientId(clientOrderId) }),
  // Coinbase lists orders with the client_order_id they were placed with (has.listRecentOrders).
  async findByClientId(exchange, clientOrderId, since) {
    const id = coinbaseClientId(clientOrderId);
    // Every page since the window's start (ccxt follows Coinbase's cursor; it needs `since`), not
    // the newest page alone: a busy account's later orders would hide ours and prove it absent.
    const pages = since === undefined ? {} : { paginate: true, maxEntriesPerRequest: 100 };
    const open = await exchange.fetchOpenOrders(undefined, since, undefined, pages);
    const match = open.find((o) => o.clientOrderId === id);
    if (match) return match;
    // Every other status: ccxt's fetchClosedOrders asks for FILLED only, and a canceled, expired or
    // failed order (an IOC that missed, a partly filled market order) is ours all the same. The
    // limit only bounds what ccxt keeps of the pages it read.
    const done = await exchange.fetchOrders(undefined, since, since === undefined ? 100 : 100_000, pages);
    return done.find((o) => o.clientOrderId === id);
  },
};

export function createCoinbaseBroker(): CcxtBroker {
  return createCcxtBroker(coinbaseVenue);
}
