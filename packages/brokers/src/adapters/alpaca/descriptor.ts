// What the Alpaca adapter supports, declared once: the docs screen, the playground and the order
// validator read it. Grounded in broker-specs/alpaca/openapi.yaml (Trading API v2); the file has
// no multi-leg class (mleg), so legs are not offered.
import { ORDER_ACTIONS } from '@router/orders';
import type { BrokerDescriptor } from '../../core/broker.ts';
import type { BrokerEnvironments } from '../../core/environments.ts';

export const ALPACA_TITLE = 'Alpaca';

/** Live trading and paper trading: separate origins, keys valid on one of them only. */
export const ALPACA_ENVIRONMENTS: BrokerEnvironments = {
  live: 'https://api.alpaca.markets',
  demo: 'https://paper-api.alpaca.markets',
};

export const alpacaDescriptor: BrokerDescriptor = {
  name: 'alpaca',
  title: ALPACA_TITLE,
  status: 'active',
  baseUrl: ALPACA_ENVIRONMENTS.live,
  has: {
    previewOrder: false,
    cancelOrder: true,
    closePosition: true,
    getHoldings: true,
    refresh: false,
    findOrderByClientId: true,
    findOrderByBrokerId: true,
    listRecentOrders: false,
    idempotencyKey: true,
    brackets: true,
    multiLeg: false,
  },
  clientOrderId: { maxLength: 128, pattern: '^[\\x20-\\x7e]+$' },
  // 403 answers both a wrong key and a refused order: the message tells (client.ts). The keys'
  // refusals are Alpaca's whole messages; a refused order may word its own reason with "not
  // authorized" ("the account is not authorized for trading", openapi.yaml postOrder), which
  // refuses that order only, so these are exact, never a part of a message.
  exceptions: {
    exact: {
      forbidden: 'AuthenticationError',
      'forbidden.': 'AuthenticationError',
      'request is not authorized': 'AuthenticationError',
      unauthorized: 'AuthenticationError',
    },
    broad: {
      'client_order_id must be unique': 'DuplicateOrder',
      insufficient: 'InsufficientFunds',
    },
  },
  authentication: {
    type: 'credentials',
    credentials: ['apiKeyId', 'apiSecretKey'],
    help:
      'Create an API key in the Alpaca dashboard (Home → API Keys) and paste the key id and the secret. ' +
      'Paper keys connect the paper account (demo), live keys the live account: we find out which by asking Alpaca.',
    referrerBase: 'https://app.alpaca.markets/signup',
  },
  reference: {
    symbol: {
      required: true,
      examples: ['AAPL', 'SPY240119C00450000', 'BTC/USD'],
      examplesClass: ['stock', 'option', 'crypto'],
      examplesComment: 'US stocks and ETFs by ticker, options by OCC symbol, crypto as BASE/QUOTE (BTCUSD works too).',
    },
    class: {
      values: ['stock', 'option', 'crypto'],
      comments: 'Stocks trade in fractions (up to 9 decimals) for market and day orders; options in whole contracts.',
    },
    action: {
      required: true,
      values: [...ORDER_ACTIONS],
      byClass: { crypto: ['buy', 'sell', 'close', 'cancel'] },
      comments:
        'Option actions are sent as side and position_intent. close cancels the symbol’s open orders and ' +
        'liquidates the position (quantity_type percent_of_position closes a part); cancel cancels its open orders. ' +
        'Crypto cannot be sold short.',
    },
    quantity: {
      required: true,
      examples: [10, 0.5, 1000],
      comments: 'Shares, contracts or coins; cash amount with quantity_type cash.',
    },
    quantity_type: {
      values: ['fixed', 'cash', 'percent_of_position'],
      comments:
        'cash buys or sells this many USD worth (Alpaca notional; stocks and crypto). percent_of_position only with close.',
    },
    type: {
      values: ['market', 'limit', 'stop', 'stop_limit'],
      comments: 'A stop with stop_price_distance or stop_price_percent is sent as an Alpaca trailing stop.',
    },
    limit_price: {
      examples: [185.5],
      comments:
        'Required for limit and stop_limit orders. Stock and option prices go on the cent ($0.0001 under $1), ' +
        'which Alpaca requires: a buy’s rounded down, a sell’s up (stops and exits too).',
    },
    stop_price: { examples: [180], comments: 'Required for stop and stop_limit orders (or a trailing distance).' },
    stop_price_distance: { examples: [2.5], comments: 'Trailing stop: trails the price by this many USD.' },
    stop_price_percent: { examples: [1.5], comments: 'Trailing stop: trails the price by this percentage.' },
    take_profit_price: {
      examples: [200],
      comments: 'Stocks only: with stop_loss_price a bracket order, alone a one-triggers-other (oto) order.',
    },
    stop_loss_price: {
      examples: [175],
      comments: 'Stocks only: the stop of the bracket (or of the oto order when alone), sent as a stop order.',
    },
    group: { values: ['bracket'], comments: 'Optional: take_profit_price and stop_loss_price already make a bracket.' },
    duration: {
      values: ['day', 'gtc', 'opg', 'cls', 'ioc', 'fok'],
      comments:
        'opg and cls trade in the opening and closing auctions (market and limit). Options take day only; ' +
        'crypto takes day, gtc, ioc and fok; fractional and cash orders take day.',
    },
    client_id: {
      examples: ['my-order-1'],
      comments: 'Up to 64 characters. Our signal id is sent as Alpaca’s client_order_id, so a repeat is refused.',
    },
    extra: {
      values: ['extended_hours'],
      examples: ['{"extended_hours": true}'],
      comments: 'extended_hours: limit orders with duration day may fill in pre- and after-market sessions.',
    },
  },
};
