// What Coinbase Advanced Trade (spot, through ccxt) supports, declared once.
import type { BrokerDescriptor } from '../../core/broker.ts';

export const COINBASE_TITLE = 'Coinbase';

export const coinbaseDescriptor: BrokerDescriptor & { baseUrl: string } = {
  name: 'coinbase',
  title: COINBASE_TITLE,
  status: 'active',
  scale: 0.8,
  baseUrl: 'https://api.coinbase.com',
  // Orders are listed with their client_order_id; a repeated one answers with the first order.
  has: {
    previewOrder: false,
    cancelOrder: true,
    closePosition: 'emulated',
    getHoldings: true,
    lastPrice: true,
    refresh: false,
    findOrderByClientId: false,
    findOrderByBrokerId: true,
    listRecentOrders: true,
    idempotencyKey: true,
    brackets: false,
    multiLeg: false,
  },
  clientOrderId: { maxLength: 128, pattern: '^[\\x21-\\x7e]+$' },
  exceptions: {
    broad: {
      'order not found': 'OrderNotFound',
      'orderid was not found': 'OrderNotFound',
      unauthorized: 'AuthenticationError',
      'invalid api key': 'AuthenticationError',
      'invalid signature': 'AuthenticationError',
      'invalid jwt': 'AuthenticationError',
    },
  },
  authentication: {
    type: 'credentials',
    credentials: ['apiKeyName', 'privateKey'],
    help:
      'Create a Secret API key (ECDSA) at portal.cdp.coinbase.com with the View and Trade permissions. ' +
      'Paste its name (organizations/…/apiKeys/…) and the EC private key PEM (-----BEGIN EC PRIVATE KEY-----). ' +
      'Requests are signed with short-lived ES256 JWTs.',
  },
  reference: {
    symbol: {
      required: true,
      examples: ['BTC-USD', 'BTCUSD', 'ETH/USD', 'SOL-USDC'],
      examplesClass: ['crypto', 'crypto', 'crypto', 'crypto'],
      examplesComment: 'Spot products in Coinbase notation (BTC-USD) or signal notation (BTCUSD, BTC/USD, XBTUSD).',
    },
    class: { values: ['crypto'], comments: 'Coinbase Advanced Trade spot. Futures and perpetuals are not supported.' },
    action: {
      required: true,
      values: ['buy', 'sell', 'close', 'cancel'],
      comments:
        "close cancels the product's open orders and sells its available base currency at market; cancel cancels them.",
    },
    quantity: { required: true, examples: [0.01, 2], comments: 'In the base currency (BTC for BTC-USD): base_size.' },
    quantity_type: { values: ['fixed', 'cash'], comments: 'cash: quote_size in the quote currency, market buys only.' },
    type: { values: ['market', 'limit', 'stop_limit'], comments: 'Coinbase has no stop market order: use stop_limit.' },
    limit_price: { examples: [65000], comments: 'Required for limit and stop_limit orders.' },
    stop_price: {
      examples: [60000],
      comments: 'stop_limit only: the stop price; the direction follows from it and the limit price.',
    },
    duration: {
      values: ['gtc', 'ioc', 'fok'],
      comments: 'Market orders are always ioc. Limit: gtc, ioc (sor_limit_ioc) or fok; stop_limit: gtc.',
    },
    client_id: {
      examples: ['my-order-1'],
      comments: 'Sent as client_order_id. Coinbase answers a repeated client_order_id with the existing order.',
    },
  },
};
