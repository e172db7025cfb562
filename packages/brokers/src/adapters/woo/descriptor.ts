// What WOO X (spot and perpetual swaps, through ccxt) supports, declared once.
import type { BrokerDescriptor } from '../../core/broker.ts';

export const WOO_TITLE = 'WOO X';

export const wooDescriptor: BrokerDescriptor & { baseUrl: string } = {
  name: 'woo',
  title: WOO_TITLE,
  status: 'active',
  scale: 0.8,
  baseUrl: 'https://api.woox.io',
  // Client order ids are numbers: ours is hashed into one.
  has: {
    previewOrder: false,
    cancelOrder: true,
    closePosition: 'emulated',
    getHoldings: true,
    refresh: false,
    findOrderByClientId: true,
    findOrderByBrokerId: true,
    listRecentOrders: false,
    idempotencyKey: true,
    brackets: false,
    multiLeg: false,
  },
  clientOrderId: { maxLength: 15, pattern: '^[1-9][0-9]{0,14}$' },
  exceptions: {
    broad: {
      'order not found': 'OrderNotFound',
      'client_order_id is repeated': 'DuplicateOrder',
    },
  },
  authentication: {
    type: 'credentials',
    credentials: ['apiKey', 'apiSecret'],
    help:
      'Create an API key under Account → Subaccounts & API with trading enabled, and paste the key and secret. ' +
      'For staging keys, connect with sandbox = true.',
  },
  reference: {
    symbol: {
      required: true,
      examples: ['BTCUSDT', 'BTC/USDT', 'SPOT_ETH_USDT', 'PERP_BTC_USDT'],
      examplesClass: ['crypto', 'crypto', 'crypto', 'crypto'],
      examplesComment:
        "Signal notation (BTCUSDT, BTC/USDT, BTC-USDT) trades spot; WOO's own ids choose the market (SPOT_…, PERP_…), " +
        'or extra.market = "perp" picks the perpetual swap of a pair.',
    },
    class: { values: ['crypto'], comments: 'Spot and USDT-margined perpetual swaps, both as crypto.' },
    action: {
      required: true,
      values: ['buy', 'sell', 'close', 'cancel'],
      comments:
        'close cancels open orders, then closes the perpetual position (reduce-only) or sells the spot balance.',
    },
    quantity: { required: true, examples: [0.01, 1], comments: 'In the base currency (BTC for BTC/USDT).' },
    quantity_type: {
      values: ['fixed', 'cash'],
      comments: 'cash: an amount in the quote currency, spot market buys only.',
    },
    type: { values: ['market', 'limit'], comments: 'Stop orders (WOO algo orders) are not supported yet.' },
    limit_price: { examples: [65000], comments: 'Required for limit orders.' },
    duration: { values: ['gtc', 'ioc', 'fok'], comments: 'Limit orders: gtc (LIMIT), ioc (IOC) or fok (FOK).' },
    client_id: {
      examples: ['my-order-1'],
      comments:
        'WOO client order ids are numbers: ours is hashed into one (clientOrderId). A repeated id returns the first order.',
    },
    extra: { values: ['market'], examples: ['{"market": "perp"}'], comments: 'market: spot (default) or perp.' },
  },
};
