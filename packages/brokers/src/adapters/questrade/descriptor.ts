// What the Questrade adapter supports, declared once (docs screen, playground, order validator).
// Grounded in broker-specs/questrade/WIRE.md: OAuth 2 with single-use refresh tokens and a
// per-token API host, orders by Questrade's symbolId, brackets, option strategies, no client
// order id (an order is found again by its id or its terms), rejections as HTTP 200 bodies.
import { ORDER_ACTIONS } from '@router/orders';
import type { BrokerDescriptor } from '../../core/broker.ts';

export const QUESTRADE_TITLE = 'Questrade';
/** The sign-in host; the API host comes with each token (api_server). */
export const QUESTRADE_LOGIN_URL = 'https://login.questrade.com';
export const QUESTRADE_PRACTICE_LOGIN_URL = 'https://practicelogin.questrade.com';

export const questradeDescriptor: BrokerDescriptor = {
  name: 'questrade',
  title: QUESTRADE_TITLE,
  status: 'beta',
  scale: 1.6,
  baseUrl: QUESTRADE_LOGIN_URL,
  has: {
    // POST …/orders/impact: commissions and buying-power effect, nothing placed.
    previewOrder: true,
    cancelOrder: true,
    // No close call: an opposite market order for the position.
    closePosition: 'emulated',
    getHoldings: true,
    refresh: true,
    findOrderByClientId: false,
    findOrderByBrokerId: true,
    // Orders by time window, matched by terms: Questrade keeps no client order id.
    listRecentOrders: true,
    idempotencyKey: false,
    brackets: true,
    multiLeg: true,
  },
  clientOrderId: null,
  exceptions: {
    broad: {
      'buying power': 'InsufficientFunds',
      insufficient: 'InsufficientFunds',
    },
  },
  authentication: {
    type: 'open',
    credentials: ['code'],
    referrerBase: 'https://www.questrade.com',
    help:
      'Sign in at Questrade and allow this app access to your accounts. Trading access: Questrade lets personal ' +
      'API apps read accounts only; placing orders needs Questrade partner (trading) access for the app this ' +
      'server is registered as (QUESTRADE_CLIENT_ID), and without it Questrade refuses every order. Questrade ' +
      'renews the sign-in each time it is used; after about 7 days without use it lapses and you connect again.',
  },
  reference: {
    symbol: {
      required: true,
      examples: ['AAPL', 'TD.TO', 'AAPL  271217C00200000'],
      examplesClass: ['stock', 'stock', 'option'],
      examplesComment:
        'US and Canadian stocks and ETFs as Questrade lists them (TD.TO for Toronto), options in OCC form ' +
        '(AAPL271217C200 works too); each is looked up as Questrade’s symbolId.',
    },
    class: { values: ['stock', 'option'], comments: 'Stocks and ETFs, and equity options.' },
    action: {
      required: true,
      values: [...ORDER_ACTIONS],
      comments:
        'Sent as Buy or Sell: Questrade tells a short sale or an option opening from the position. close cancels ' +
        'the symbol’s open orders and sends a market order for the position (a part with quantity, leaving ' +
        "the orders); cancel cancels the symbol's open orders.",
    },
    quantity: { required: true, examples: [10, 1], comments: 'Whole shares or contracts.' },
    quantity_type: { values: ['fixed'] },
    type: { values: ['market', 'limit', 'stop', 'stop_limit'] },
    limit_price: {
      examples: [537, -1.25],
      comments:
        'Required for limit and stop_limit orders. For a multi-leg order it is the net price of the strategy: ' +
        'positive is a debit paid, negative a credit received. Prices from $1 up, and option prices at every ' +
        'price, go on the cent: a buy’s rounded down, a sell’s up (stops and exits too); a net price always ' +
        'goes on the cent, a debit paid and a credit received never past the one given.',
    },
    stop_price: { examples: [530], comments: 'Required for stop and stop_limit orders.' },
    take_profit_price: {
      examples: [560],
      comments: 'A bracket order: a limit exit, one-cancels-other with the stop loss, with the entry’s duration.',
    },
    stop_loss_price: { examples: [520], comments: 'The stop exit of the bracket. Either exit or both may be given.' },
    duration: {
      values: ['day', 'gtc', 'dyp', 'ioc', 'fok'],
      comments:
        'day, good till canceled, dyp (good till extended day: the day including extended hours), immediate ' +
        'or cancel, fill or kill.',
    },
    group: {
      values: ['bracket', 'combo'],
      comments:
        'bracket: an entry with take profit and/or stop loss. combo: an option strategy (legs), sent as Custom.',
    },
    legs: {
      examples: [
        '[{"symbol":"SPY   271217C00600000","action":"buy_to_open","quantity":1},' +
          '{"symbol":"SPY   271217C00610000","action":"sell_to_open","quantity":1}]',
      ],
      comments:
        'Up to 4 legs on one underlying (options, or its stock and options), sent as one strategy order; ' +
        'the net price goes in limit_price, not per leg.',
    },
    extra: {
      values: ['all_or_none', 'iceberg_quantity', 'min_quantity'],
      examples: ['{"all_or_none": true}', '{"iceberg_quantity": 100}'],
      comments:
        'all_or_none: fill all or nothing. iceberg_quantity: the quantity shown to the market. min_quantity: ' +
        'the smallest fill accepted.',
    },
  },
};
