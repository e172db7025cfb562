// Kraken spot through ccxt: orders go to POST /0/private/AddOrder (form-encoded, API-Sign),
// our client order id as cl_ord_id.

import type { Order } from '@router/orders';
import { type CcxtBroker, createCcxtBroker } from '../../ccxt/broker.ts';
import { boundedId, uuidFor } from '../../ccxt/client-id.ts';
import { basicOrder, refuseUnless } from '../../ccxt/order-args.ts';
import type { CcxtVenue, OrderArgs } from '../../ccxt/venue.ts';
import { KRAKEN_TITLE, krakenDescriptor } from './descriptor.ts';

/** cl_ord_id: free text up to 18 characters, else a UUID. */
export function krakenClientId(id: string): string {
  return id.length <= 18 && /^[A-Za-z0-9_-]+$/.test(id) ? boundedId(id, 18) : uuidFor(id);
}

/**
 * The API key permission each private call needs (the API reference's "API Key Permissions
 * Required"), named in the key settings of Kraken Pro under these words.
 */
const PERMISSIONS: Record<string, string> = {
  Balance: 'Query funds',
  BalanceEx: 'Query funds',
  TradeBalance: 'Query funds',
  OpenOrders: 'Query open orders & trades',
  ClosedOrders: 'Query closed orders & trades',
  QueryOrders: 'Query open orders & trades" and "Query closed orders & trades',
  AddOrder: 'Create & modify orders',
  CancelOrder: 'Cancel & close orders',
};

/**
 * "EOrder:Insufficient funds" → "insufficient funds". Kraken answers every call the key may not
 * make with the same "EGeneral:Permission denied": the call (`path`) names the permission missing.
 */
function readKrakenMessage(body: unknown, path?: string): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const errors = (body as { error?: unknown }).error;
  const first = Array.isArray(errors) ? errors.find((e): e is string => typeof e === 'string') : undefined;
  if (!first) return undefined;
  const words = first.replace(/^[EW][A-Za-z]+:/, '').trim();
  const message = words.charAt(0).toLowerCase() + words.slice(1);
  const permission = first === 'EGeneral:Permission denied' ? PERMISSIONS[path?.split('/').at(-1) ?? ''] : undefined;
  if (!permission) return message;
  // AddOrder is also refused so for a pair the account may not trade.
  const orPair = path?.endsWith('/AddOrder') ? ', or the account may not trade this pair' : '';
  return `${message}: the API key needs the permission "${permission}"${orPair}`;
}

function krakenOrderArgs(order: Order, clientOrderId: string): OrderArgs {
  const basic = basicOrder(KRAKEN_TITLE, order);
  refuseUnless(KRAKEN_TITLE, order.duration === 'gtc' || order.duration === 'ioc', `duration ${order.duration}`);
  const params: OrderArgs['params'] = { clientOrderId: krakenClientId(clientOrderId) };
  if (order.duration === 'ioc') params.timeInForce = 'IOC';
  if (order.quantity_type === 'cash') {
    refuseUnless(KRAKEN_TITLE, order.type === 'market' && basic.side === 'buy', 'cash quantity except on market buys');
    params.cost = basic.amount;
  } else refuseUnless(KRAKEN_TITLE, order.quantity_type === 'fixed', `quantity_type ${order.quantity_type}`);
  switch (order.type) {
    case 'market':
      return { type: 'market', side: basic.side, amount: basic.amount, params };
    case 'limit':
      return { type: 'limit', side: basic.side, amount: basic.amount, price: basic.limitPrice, params };
    case 'stop':
      return {
        type: 'market',
        side: basic.side,
        amount: basic.amount,
        params: { ...params, stopLossPrice: basic.stopPrice ?? 0 },
      };
    case 'stop_limit':
      return {
        type: 'limit',
        side: basic.side,
        amount: basic.amount,
        price: basic.limitPrice,
        params: { ...params, stopLossPrice: basic.stopPrice ?? 0 },
      };
  }
}

// Kraken refuses a nonce not above the last one; ccxt's (milliseconds) repeats within a millisecond.
let lastNonce = 0;
function nextNonce(): number {
  lastNonce = Math.max(Date.now(), lastNonce + 1);
  return lastNonce;
}

const krakenVenue: CcxtVenue = {
  descriptor: krakenDescriptor,
  exchangeClass: (ccxt) => ccxt.kraken,
  credentials: (values) => ({ apiKey: values.apiKey ?? '', secret: values.apiSecret ?? '' }),
  readMessage: readKrakenMessage,
  configure(exchange) {
    exchange.nonce = nextNonce;
  },
  orderArgs: (order, _market, clientOrderId) => krakenOrderArgs(order, clientOrderId),
  clientIdParams: (clientOrderId) => ({ clientOrderId: krakenClientId(clientOrderId) }),
  async findByClientId(exchange, clientOrderId) {
    const params = { clientOrderId: krakenClientId(clientOrderId) };
    const open = await exchange.fetchOpenOrders(undefined, undefined, undefined, params);
    if (open[0]) return open[0];
    const closed = await exchange.fetchClosedOrders(undefined, undefined, undefined, params);
    return closed[0];
  },
};

export function createKrakenBroker(): CcxtBroker {
  return createCcxtBroker(krakenVenue);
}
