// What the Webull adapter supports, declared once (docs screen, playground, order validator).
// Grounded in broker-specs/webull (WIRE.md: the OpenAPI "order_v3" endpoints as Webull's Python
// SDK drives them, the skills reference, SDK-computed signature vectors).
import { ORDER_ACTIONS } from '@router/orders';
import type { BrokerDescriptor } from '../../core/broker.ts';
import type { BrokerEnvironments } from '../../core/environments.ts';

export const WEBULL_TITLE = 'Webull';

/** US production and Webull's US test environment (UAT; its docs print http). */
export const WEBULL_ENVIRONMENTS: BrokerEnvironments = {
  live: 'https://api.webull.com',
  demo: 'http://us-openapi-alb.uat.webullbroker.com',
};

export const webullDescriptor: BrokerDescriptor = {
  name: 'webull',
  title: WEBULL_TITLE,
  status: 'beta',
  scale: 0.8,
  baseUrl: WEBULL_ENVIRONMENTS.live,
  has: {
    previewOrder: true,
    cancelOrder: true,
    // No close call: the adapter sends the opposite market order for the position.
    closePosition: 'emulated',
    getHoldings: true,
    // The 2FA access token (accounts with 2FA) is renewed before it runs out.
    refresh: true,
    findOrderByClientId: true,
    // Webull looks orders up by client_order_id only.
    findOrderByBrokerId: false,
    listRecentOrders: false,
    // client_order_id is unique per account: a second order with the same id is refused.
    idempotencyKey: true,
    brackets: true,
    multiLeg: true,
  },
  clientOrderId: { maxLength: 32, pattern: '^[A-Za-z0-9]+$' },
  // Webull's error codes are not published; these are the words its messages use.
  exceptions: {
    broad: {
      'already exist': 'DuplicateOrder',
      duplicate: 'DuplicateOrder',
      'buying power': 'InsufficientFunds',
      insufficient: 'InsufficientFunds',
      'not enough': 'InsufficientFunds',
      signature: 'AuthenticationError',
      'access token': 'AuthenticationError',
      // 403 when the API account's device was never registered in the Webull app (WIRE.md §1).
      device: 'AuthenticationError',
    },
  },
  authentication: {
    type: 'credentials',
    credentials: ['appKey', 'appSecret'],
    referrerBase: 'https://developer.webull.com',
    help:
      'Create an App Key and App Secret at developer.webull.com (API Management) and log in to the Webull ' +
      'mobile app once on that account. With two-factor authentication on, Webull asks you to approve this ' +
      'connection in the Webull app: approve it while the connection is being made (within 2 minutes); ' +
      'the approval lasts about 15 days and is renewed automatically.',
  },
  reference: {
    symbol: {
      required: true,
      examples: ['AAPL', 'AAPL  271217C00200000', 'ESZ2027', 'BTC/USD'],
      examplesClass: ['stock', 'option', 'future', 'crypto'],
      examplesComment:
        'US stocks and ETFs by ticker; options in the OCC form (sent as underlying, strike, expiry and type); ' +
        'futures by contract month (ESZ2027, ESZ27 or ESZ7; sent as ESZ7); crypto against USD (BTCUSD). ' +
        'Futures and crypto trade in their own Webull accounts: create the hook on that account.',
    },
    class: {
      values: ['stock', 'option', 'future', 'crypto'],
      comments: 'US stocks and ETFs, equity and index options, futures and cryptocurrencies.',
    },
    action: {
      required: true,
      values: [...ORDER_ACTIONS],
      comments:
        'sell_short is sent as SHORT. Options take buy_to_open, buy_to_close, sell_to_open and sell_to_close. ' +
        "close sends a market order for the whole position; cancel cancels the symbol's open orders.",
    },
    quantity: {
      required: true,
      examples: [10, 0.5, 1],
      comments: 'Shares (fractions allowed), contracts or coins; with quantity_type cash, the amount in USD.',
    },
    quantity_type: {
      values: ['fixed', 'cash', 'percent_of_position'],
      comments: 'cash: a dollar amount (stocks and crypto). percent_of_position only with close.',
    },
    type: {
      values: ['market', 'limit', 'stop', 'stop_limit'],
      byClass: { crypto: ['market', 'limit', 'stop_limit'] },
      comments:
        'A stop with stop_price_distance or stop_price_percent is a trailing stop. Crypto market orders are ' +
        'immediate or cancel; crypto takes no stop (use stop_limit).',
    },
    limit_price: {
      examples: [188, -1.25],
      comments:
        'Required for limit and stop_limit. For a multi-leg order the net price: positive is a debit paid, ' +
        'negative a credit received (sent as the price with the strategy bought or sold). Stock and option prices ' +
        'go on the cent ($0.0001 under $1), futures on their contract’s tick (ES in quarters): a buy’s rounded ' +
        'down, a sell’s up (stops and exits too).',
    },
    stop_price: { examples: [180], comments: 'Required for stop and stop_limit orders.' },
    stop_price_distance: { examples: [2], comments: 'Trailing stop by this many USD.' },
    stop_price_percent: { examples: [1.5], comments: 'Trailing stop by this percentage.' },
    take_profit_price: {
      examples: [200],
      comments: 'Stocks: with stop_loss_price a bracket (a master order with a take-profit and a stop-loss exit).',
    },
    stop_loss_price: { examples: [170], comments: 'Stocks: the stop-loss exit of the bracket. Either or both.' },
    duration: {
      values: ['day', 'gtc', 'ioc', 'opg', 'cls'],
      comments:
        'day, good till canceled (60 days at most) or immediate or cancel. opg and cls: market orders in the ' +
        'opening or closing auction (Webull MARKET_ON_OPEN, MARKET_ON_CLOSE). Options take day and gtc.',
    },
    group: {
      values: ['bracket', 'combo'],
      comments: 'bracket: an entry with exits. combo: a multi-leg option strategy (legs).',
    },
    legs: {
      examples: [
        '[{"symbol":"SPY   271217C00600000","action":"buy_to_open","quantity":1},' +
          '{"symbol":"SPY   271217C00610000","action":"sell_to_open","quantity":1}]',
      ],
      comments:
        'Up to 4 option legs on one underlying sent as one strategy order: vertical, straddle, strangle, ' +
        'calendar, diagonal, butterfly, condor, iron butterfly and iron condor are recognized from the legs.',
    },
    client_id: {
      examples: ['my-order-1'],
      comments:
        "Our signal id is sent as Webull's client_order_id (letters and digits; an id that does not fit is " +
        'hashed to fit), so a repeated signal cannot place a second order.',
    },
    extra: {
      values: ['session'],
      examples: ['{"session": "ALL"}'],
      comments: 'session: CORE (regular hours, default), ALL (pre- and after-market) or NIGHT (stocks).',
    },
  },
};
