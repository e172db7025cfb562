// What the E*TRADE adapter supports, declared once (docs screen, playground, order validator).
// Grounded in broker-specs/etrade/WIRE.md (E*TRADE API v1): US equities and equity options,
// spreads as one order, every order previewed first. Brackets and OCO are not documented for
// requests, so they are not offered.
import { ORDER_ACTIONS } from '@router/orders';
import type { BrokerDescriptor } from '../../core/broker.ts';

export const ETRADE_TITLE = 'E*TRADE';
export const ETRADE_BASE_URL = 'https://api.etrade.com';
/** Canned data, orders never executed; its consumer keys are separate from production's. */
export const ETRADE_SANDBOX_URL = 'https://apisb.etrade.com';

export const etradeDescriptor: BrokerDescriptor = {
  name: 'etrade',
  title: ETRADE_TITLE,
  status: 'beta',
  scale: 0.8,
  baseUrl: ETRADE_BASE_URL,
  has: {
    // E*TRADE's own preview: every order is previewed before it is placed.
    previewOrder: true,
    cancelOrder: true,
    // No close call: a market order for the position (portfolio), previewed and placed.
    closePosition: 'emulated',
    getHoldings: true,
    // The last trade of GET /v1/market/quote/{symbols}.json.
    lastPrice: true,
    // renew_access_token reactivates a token idle for 2 hours; midnight US Eastern ends it.
    refresh: true,
    // clientOrderId is never returned: no lookup by it.
    findOrderByClientId: false,
    findOrderByBrokerId: true,
    // The day's orders, matched by terms and placed time.
    listRecentOrders: true,
    // E*TRADE refuses a second order with the same clientOrderId in the account (v0 docs).
    idempotencyKey: true,
    brackets: false,
    multiLeg: true,
  },
  // Up to 20 letters and digits (v0 docs); longer ids are sent as a hash of ours. Never returned.
  clientOrderId: { maxLength: 20, pattern: '^[A-Za-z0-9]+$', echoed: false },
  exceptions: {
    broad: {
      'oauth_problem=': 'AuthenticationError',
      'exceeded the rate limit': 'RateLimited',
      insufficient: 'InsufficientFunds',
      'buying power': 'InsufficientFunds',
      'client order id': 'DuplicateOrder',
      duplicate: 'DuplicateOrder',
    },
  },
  authentication: {
    type: 'open',
    credentials: ['oauth_verifier'],
    referrerBase: 'https://us.etrade.com',
    help:
      'Sign in at E*TRADE and accept the access request. E*TRADE ends every connection at midnight US ' +
      'Eastern time: reconnect each trading day before the first signal.',
  },
  // The verifier comes back without our state (OAuth 1.0a), bound to the pending request token.
  callbackWithoutState: true,
  reference: {
    symbol: {
      required: true,
      examples: ['AAPL', 'SPY', 'AAPL  260618C00200000'],
      examplesClass: ['stock', 'stock', 'option'],
      examplesComment:
        'US stocks and ETFs by ticker; options in the OCC form (root, expiry YYMMDD, C or P, strike × 1000 in ' +
        '8 digits), sent to E*TRADE as underlying, call/put, expiry and strike.',
    },
    class: { values: ['stock', 'option'], comments: 'US equities and ETFs, and US equity and index options.' },
    action: {
      required: true,
      values: [...ORDER_ACTIONS],
      comments:
        'Stocks: buy, sell, sell_short, buy_to_cover. Options: buy_to_open, sell_to_open, buy_to_close, ' +
        'sell_to_close. close cancels the symbol’s open orders and sends a market order for the position ' +
        '(a part with quantity, leaving the orders); cancel cancels ' +
        "the symbol's open orders.",
    },
    quantity: { required: true, examples: [100, 1], comments: 'Whole shares or contracts.' },
    quantity_type: { values: ['fixed'] },
    type: {
      values: ['market', 'limit', 'stop', 'stop_limit'],
      comments: 'A multi-leg order is a limit order at a net price.',
    },
    limit_price: {
      examples: [175.25, -1.25],
      comments:
        'Required for limit and stop_limit. For a multi-leg order the net price: positive a debit paid ' +
        '(NET_DEBIT), negative a credit received (NET_CREDIT), 0 even (NET_EVEN).',
    },
    stop_price: { examples: [170], comments: 'Required for stop and stop_limit orders (the trigger).' },
    duration: {
      values: ['day', 'gtc', 'ioc', 'fok', 'ato', 'atc'],
      comments:
        'day, good until canceled, immediate or cancel, fill or kill; ato and atc send market or limit orders ' +
        'on the open or on the close (MARKET_ON_OPEN, LIMIT_ON_CLOSE, …).',
    },
    group: {
      values: ['combo'],
      comments:
        'combo: legs traded as one order. Two option legs are a spread; a stock leg and a call a buy-write; ' +
        'three or four legs a butterfly, condor, iron butterfly or iron condor as E*TRADE names them.',
    },
    legs: {
      examples: [
        '[{"symbol":"SPY   261218C00580000","action":"buy_to_open","quantity":1},' +
          '{"symbol":"SPY   261218C00590000","action":"sell_to_open","quantity":1}]',
      ],
      comments: 'Up to 4 legs sent as one order; the net price goes in limit_price, not per leg.',
    },
    client_id: {
      examples: ['my-order-1'],
      comments:
        'A signal repeating a client_id places nothing. Our signal id is sent as E*TRADE’s clientOrderId, which ' +
        'E*TRADE refuses to take twice.',
    },
    extra: {
      values: ['session', 'all_or_none'],
      examples: ['{"session": "extended"}', '{"all_or_none": true}'],
      comments:
        'session: regular (default) or extended (pre- and after-market). all_or_none: fill the whole quantity ' +
        'or nothing.',
    },
  },
};
