// What the Schwab adapter supports, declared once (docs screen, playground, order validator).
// Grounded in Schwab's Trader API description (broker-specs/schwab) and its order samples.
import { ORDER_ACTIONS } from '@router/orders';
import type { BrokerDescriptor } from '../../core/broker.ts';

export const SCHWAB_TITLE = 'Schwab';
export const SCHWAB_BASE_URL = 'https://api.schwabapi.com';

export const schwabDescriptor: BrokerDescriptor = {
  name: 'schwab',
  title: SCHWAB_TITLE,
  status: 'beta',
  scale: 1.8,
  baseUrl: SCHWAB_BASE_URL,
  has: {
    previewOrder: true,
    cancelOrder: true,
    // No close call: the adapter sends an opposite market order for the position.
    closePosition: 'emulated',
    getHoldings: true,
    refresh: true,
    findOrderByClientId: false,
    findOrderByBrokerId: true,
    // Orders by entry time, matched by terms: Schwab keeps no client order id.
    listRecentOrders: true,
    idempotencyKey: false,
    brackets: true,
    multiLeg: true,
  },
  clientOrderId: null,
  exceptions: {
    broad: {
      insufficient: 'InsufficientFunds',
      'buying power': 'InsufficientFunds',
      'not enough funds': 'InsufficientFunds',
      'not enough cash': 'InsufficientFunds',
      'exceeds available': 'InsufficientFunds',
      'exceeds your available': 'InsufficientFunds',
      'exceeds cash': 'InsufficientFunds',
    },
  },
  authentication: {
    type: 'open',
    credentials: ['code'],
    referrerBase: 'https://sws-gateway-nr.schwab.com',
    help:
      'Sign in at Schwab and allow access to the accounts you want to trade. Schwab asks you to sign in ' +
      'again every 7 days: reconnect when the connection says it is about to expire.',
  },
  reference: {
    symbol: {
      required: true,
      examples: ['AAPL', 'SPY', 'AAPL  250117C00150000'],
      examplesClass: ['stock', 'stock', 'option'],
      examplesComment:
        'Stocks and ETFs by ticker; options in the OCC form Schwab uses: root padded to 6 characters, ' +
        'expiry YYMMDD, C or P, strike × 1000 in 8 digits (AAPL250117C150 is accepted and converted).',
    },
    class: { values: ['stock', 'option'], comments: 'US stocks and ETFs, and US equity and index options.' },
    action: {
      required: true,
      values: [...ORDER_ACTIONS],
      comments:
        'Options take buy_to_open, buy_to_close, sell_to_open and sell_to_close. close cancels the symbol’s open ' +
        'orders and sends a market order for the whole position (a part with quantity, leaving the orders); ' +
        "cancel cancels the symbol's open orders.",
    },
    quantity: { required: true, examples: [10, 1], comments: 'Whole shares or contracts.' },
    quantity_type: { values: ['fixed'] },
    type: { values: ['market', 'limit', 'stop', 'stop_limit'] },
    limit_price: {
      examples: [185.5, -1.25],
      comments:
        'Required for limit and stop_limit orders. For a multi-leg order it is the net price: positive is a ' +
        'debit paid (NET_DEBIT), negative a credit received (NET_CREDIT).',
    },
    stop_price: { examples: [180], comments: 'Required for stop and stop_limit orders.' },
    take_profit_price: {
      examples: [200],
      comments:
        'buy, sell_short, buy_to_open and sell_to_open only: a limit exit (GTC) triggered when the entry fills, ' +
        'one-cancels-other with the stop loss.',
    },
    stop_loss_price: {
      examples: [170],
      comments: 'As take_profit_price, a stop exit (GTC). Either or both may be given.',
    },
    duration: {
      values: ['day', 'gtc', 'fok', 'ioc'],
      comments: 'day, good till canceled, fill or kill, immediate or cancel. Market orders are day orders.',
    },
    group: {
      values: ['bracket', 'combo'],
      comments: 'bracket: an entry with take profit and/or stop loss. combo: a multi-leg option order (legs).',
    },
    legs: {
      examples: [
        '[{"symbol":"SPY   250321C00580000","action":"buy_to_open","quantity":1},' +
          '{"symbol":"SPY   250321C00590000","action":"sell_to_open","quantity":1}]',
      ],
      comments:
        'Up to 4 option (or stock and option) legs sent as one order; verticals and iron condors are labelled ' +
        'as such, anything else CUSTOM. The net price goes in limit_price, not per leg.',
    },
    extra: {
      values: ['session'],
      examples: ['{"session": "SEAMLESS"}'],
      comments: 'session: NORMAL (default), AM (pre-market), PM (after hours) or SEAMLESS (all sessions).',
    },
  },
};
