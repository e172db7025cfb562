// What BitMEX (perpetual swaps, through ccxt) supports, declared once. BitMEX closed its
// exchange on 23 September 2026 (04:00 UTC); the adapter stays for testnet use and for the
// record, and the notice says so on the connector.
import type { BrokerDescriptor } from '../../core/broker.ts';

export const BITMEX_TITLE = 'BitMEX';

export const bitmexDescriptor: BrokerDescriptor & { baseUrl: string } = {
  name: 'bitmex',
  title: BITMEX_TITLE,
  status: 'active',
  scale: 0.7,
  baseUrl: 'https://www.bitmex.com',
  has: {
    previewOrder: false,
    cancelOrder: true,
    closePosition: 'emulated',
    getHoldings: true,
    lastPrice: true,
    refresh: false,
    findOrderByClientId: true,
    findOrderByBrokerId: true,
    listRecentOrders: false,
    idempotencyKey: true,
    brackets: false,
    multiLeg: false,
  },
  clientOrderId: { maxLength: 36, pattern: '^[A-Za-z0-9_-]+$' },
  exceptions: {
    broad: {
      'duplicate clordid': 'DuplicateOrder',
      'signature not valid': 'AuthenticationError',
      'invalid api key': 'AuthenticationError',
      'api key is disabled': 'AuthenticationError',
      'api key has expired': 'AuthenticationError',
      'api key expired': 'AuthenticationError',
      'this key is disabled': 'AuthenticationError',
    },
  },
  notice: 'BitMEX closed its exchange on 23 September 2026; live orders are refused there. Testnet keys still connect.',
  authentication: {
    type: 'credentials',
    credentials: ['apiKey', 'apiSecret'],
    help:
      'Create an API key under Account → API Keys with order permission. For testnet.bitmex.com keys, ' +
      'connect with the extra value sandbox = true.',
  },
  reference: {
    symbol: {
      required: true,
      examples: ['XBTUSD', 'BTC/USD', 'ETHUSD', 'XBTUSDT'],
      examplesClass: ['crypto', 'crypto', 'crypto', 'crypto'],
      examplesComment:
        'Perpetual swaps: XBTUSD (inverse, BTC/USD), XBTUSDT (linear, BTC/USDT), ETHUSD. Signal notation ' +
        '(BTCUSD, BTC/USD, XBT/USD) maps to the perpetual of that pair.',
    },
    class: {
      values: ['crypto'],
      comments:
        'BitMEX perpetual swaps are traded as crypto (signals name them as pairs: XBTUSD). Dated futures and spot are not supported.',
    },
    action: {
      required: true,
      values: ['buy', 'sell', 'close', 'cancel'],
      comments:
        'sell opens or adds to a short. close cancels open orders and closes the position at market (reduce-only; with a quantity, that many contracts of it).',
    },
    quantity: {
      required: true,
      examples: [100, 1000],
      comments: "Contracts (BitMEX orderQty): USD for XBTUSD, a multiple of the instrument's lot size.",
    },
    quantity_type: { values: ['fixed'], comments: 'Contracts only.' },
    type: {
      values: ['market', 'limit', 'stop', 'stop_limit'],
      comments: 'stop is BitMEX Stop (stopPx); stop_limit is StopLimit.',
    },
    limit_price: { examples: [65000], comments: 'Required for limit and stop_limit orders.' },
    stop_price: { examples: [60000], comments: 'stopPx: the trigger price of stop and stop_limit orders.' },
    duration: { values: ['gtc', 'day', 'ioc', 'fok'], comments: 'GoodTillCancel, Day, ImmediateOrCancel, FillOrKill.' },
    client_id: {
      examples: ['my-order-1'],
      comments: 'Sent as clOrdID (hashed when longer than 36 characters). A repeated clOrdID returns the first order.',
    },
  },
};
