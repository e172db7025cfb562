// What the Robinhood adapter supports, declared once (docs screen, playground, order validator).
// Grounded in broker-specs/robinhood/WIRE.md: the Crypto Trading API is Robinhood's only public
// order API (US, crypto, USD pairs, live only); stocks and options have none, so they are refused
// before anything is sent, with the reason.
import type { BrokerDescriptor } from '../../core/broker.ts';

export const ROBINHOOD_TITLE = 'Robinhood';
export const ROBINHOOD_BASE_URL = 'https://trading.robinhood.com';

const NO_STOCK_API =
  'Robinhood has no public order API for stocks and options; its only one, the Crypto Trading API, trades crypto';

export const robinhoodDescriptor: BrokerDescriptor = {
  name: 'robinhood',
  title: ROBINHOOD_TITLE,
  status: 'beta',
  scale: 1.2,
  baseUrl: ROBINHOOD_BASE_URL,
  has: {
    // No preview call: the order is checked against the pair and built, nothing is sent.
    previewOrder: 'emulated',
    cancelOrder: true,
    // No close call: the adapter sells the holding at market.
    closePosition: 'emulated',
    getHoldings: true,
    lastPrice: true,
    refresh: false,
    // No client_order_id filter exists: our id is matched in the list of recent orders.
    findOrderByClientId: false,
    findOrderByBrokerId: true,
    listRecentOrders: true,
    // No idempotency header, and what a repeated client_order_id does is not documented.
    idempotencyKey: false,
    brackets: false,
    multiLeg: false,
  },
  // Robinhood takes only a UUID; our signal id is turned into one (client-order-id.ts).
  clientOrderId: { maxLength: 36, pattern: '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' },
  // Messages as api.ts reads them: "<attr>: <detail>" from {"type", "errors": [{"attr", "detail"}]}.
  exceptions: {
    broad: {
      'insufficient buying power': 'InsufficientFunds',
      'insufficient funds': 'InsufficientFunds',
      'insufficient holdings': 'InsufficientFunds',
      'client_order_id: order with this client order id already exists': 'DuplicateOrder',
    },
  },
  authentication: {
    type: 'credentials',
    credentials: ['apiKey', 'privateKey'],
    referrerBase: 'https://robinhood.com/account/crypto',
    help:
      'Robinhood lets programs trade crypto only (its Crypto Trading API, US accounts). Create an Ed25519 key ' +
      'pair, add the public key as an API credential in Robinhood’s crypto account settings (web), and paste ' +
      'the API key (rh-api-…) and the private key (base64). Each crypto account is listed twice: v1 routes ' +
      'orders to market makers (spread in the price), v2 to partner exchanges with fee tiers.',
  },
  reference: {
    symbol: {
      required: true,
      examples: ['BTC-USD', 'ETH-USD', 'DOGEUSD'],
      examplesClass: ['crypto', 'crypto', 'crypto'],
      examplesComment:
        'Crypto against USD: BTC-USD, BTC/USD, BTCUSD or BTC all trade the pair BTC-USD. Only pairs Robinhood lists ' +
        '(and, on v2, marks API-tradable) are accepted.',
    },
    class: {
      values: ['crypto'],
      unsupported: { stock: NO_STOCK_API, option: NO_STOCK_API },
      comments: `Crypto only. ${NO_STOCK_API}.`,
    },
    action: {
      required: true,
      values: ['buy', 'sell', 'close', 'cancel'],
      comments:
        'No short selling: sell only what you hold. close sells the coins available for trading at market (a ' +
        "part with quantity); cancel cancels the pair's open orders.",
    },
    quantity: {
      required: true,
      examples: [0.0001, 0.25, 100],
      comments: 'Coins, rounded down to the pair’s increment; a USD amount with quantity_type cash.',
    },
    quantity_type: {
      values: ['fixed', 'cash', 'percent_of_position'],
      comments:
        'cash: a USD amount (quote_amount), for limit and stop orders only. percent_of_position: part of the ' +
        'coins held, with sell or close.',
    },
    type: {
      values: ['market', 'limit', 'stop', 'stop_limit'],
      comments: 'stop is sent as a Robinhood stop_loss order. No brackets, trailing stops or OCO orders.',
    },
    limit_price: { examples: [61000, 3500], comments: 'USD; required for limit and stop_limit orders.' },
    stop_price: { examples: [58000], comments: 'USD; required for stop and stop_limit orders.' },
    duration: {
      values: ['gtc', 'day', 'gtw', 'gtm'],
      comments:
        'For limit and stop orders: good till canceled, good for the day (gfd), week (gfw) or month (gfm). ' +
        'Market orders fill at once.',
    },
    client_id: {
      examples: ['my-order-1'],
      comments:
        'Robinhood takes a UUID as client_order_id: our signal id is sent as one (derived from it when it is not a UUID).',
    },
  },
};
