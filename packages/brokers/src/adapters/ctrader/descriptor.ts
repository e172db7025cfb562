// What the cTrader adapter supports, declared once (docs screen, playground, order validator).
// Grounded in broker-specs/ctrader (WIRE.md and Spotware's .proto files, copied in proto/): the
// Open API over a long-lived socket, OAuth for the user's accounts, symbols by numeric id per
// broker, volume in hundredths of a unit, SL/TP absolute on pending orders and relative on market
// orders, a clientOrderId of up to 50 characters that cTrader echoes but does not deduplicate.
import type { BrokerDescriptor } from '../../core/broker.ts';

export const CTRADER_TITLE = 'cTrader';
/** Where the user signs in and tokens are issued (WIRE.md §1). */
export const CTRADER_OAUTH_ORIGIN = 'https://openapi.ctrader.com';
/** The protobuf endpoints (WIRE.md §2), spoken as WebSocket binary frames; one per environment. */
export const CTRADER_ENDPOINTS = {
  live: 'wss://live.ctraderapi.com:5035',
  demo: 'wss://demo.ctraderapi.com:5035',
} as const;
export const CLIENT_ORDER_ID_MAX = 50;

export const ctraderDescriptor: BrokerDescriptor = {
  name: 'ctrader',
  title: CTRADER_TITLE,
  status: 'beta',
  scale: 1.5,
  baseUrl: CTRADER_OAUTH_ORIGIN,
  has: {
    previewOrder: false,
    cancelOrder: true,
    closePosition: true,
    getHoldings: true,
    refresh: true,
    // No request finds an order by clientOrderId (WIRE.md §6): open orders (reconcile) and the
    // order list of the time it was sent are searched for it instead.
    findOrderByClientId: false,
    findOrderByBrokerId: true,
    listRecentOrders: true,
    // cTrader keeps clientOrderId as a tag; a repeat is not refused.
    idempotencyKey: false,
    brackets: true,
    multiLeg: false,
  },
  clientOrderId: { maxLength: CLIENT_ORDER_ID_MAX, pattern: '^[\\x21-\\x7E]+$' },
  // errorCode names of ProtoOAErrorRes, ProtoOAOrderErrorEvent and rejected executions (exact).
  exceptions: {
    exact: {
      NOT_ENOUGH_MONEY: 'InsufficientFunds',
      OA_AUTH_TOKEN_EXPIRED: 'AuthenticationError',
      CH_ACCESS_TOKEN_INVALID: 'AuthenticationError',
      ACCOUNT_NOT_AUTHORIZED: 'AuthenticationError',
      // One trading account of the token, not the token (OpenApiModelMessages.proto): refuses
      // what was asked of that account; the connection's other accounts still work.
      CH_CTID_TRADER_ACCOUNT_NOT_FOUND: 'InvalidOrder',
      RET_NO_SUCH_LOGIN: 'InvalidOrder',
      RET_ACCOUNT_DISABLED: 'InvalidOrder',
      // The operator's application, not the user's sign-in: nothing the user can reconnect.
      CH_CLIENT_AUTH_FAILURE: 'BrokerUnavailable',
      CH_OA_CLIENT_NOT_FOUND: 'BrokerUnavailable',
      CH_CLIENT_NOT_AUTHENTICATED: 'BrokerUnavailable',
      CH_SERVER_NOT_REACHABLE: 'BrokerUnavailable',
      CANT_ROUTE_REQUEST: 'BrokerUnavailable',
      SERVER_IS_UNDER_MAINTENANCE: 'BrokerUnavailable',
      CONNECTIONS_LIMIT_EXCEEDED: 'BrokerUnavailable',
      TIMEOUT_ERROR: 'BrokerUnavailable',
      UNKNOWN_ERROR: 'BrokerUnavailable',
      REQUEST_FREQUENCY_EXCEEDED: 'RateLimited',
      BLOCKED_PAYLOAD_TYPE: 'RateLimited',
      ORDER_NOT_FOUND: 'OrderNotFound',
      POSITION_NOT_FOUND: 'OrderNotFound',
      ENTITY_NOT_FOUND: 'OrderNotFound',
    },
  },
  authentication: {
    type: 'open',
    credentials: ['code'],
    referrerBase: CTRADER_OAUTH_ORIGIN,
    help:
      'Sign in with your cTrader ID and allow trading access to the accounts you want to use, live and ' +
      'demo alike. The access lasts 30 days and is renewed on its own; connect again only if you revoke it.',
  },
  reference: {
    symbol: {
      required: true,
      // Gold first: one ounce is a valid size at cTrader brokers, where one unit of EURUSD is not.
      examples: ['XAUUSD', 'EURUSD', 'BTCUSD', 'US500', 'AAPL'],
      examplesClass: ['commodity', 'forex', 'crypto', 'index', 'stock'],
      examplesComment:
        "The symbol's name as your broker lists it in cTrader (EURUSD, XAUUSD, US500, AAPL.US); EUR/USD and " +
        'EUR_USD find EURUSD too. Each broker numbers its symbols itself; the adapter looks the name up in your account.',
      serverNames: true,
    },
    class: {
      values: ['forex', 'crypto', 'commodity', 'index', 'stock'],
      comments:
        'Whatever your broker offers in cTrader: currency pairs, metals and energies, crypto, indices and ' +
        'shares, all traded by symbol name.',
    },
    action: {
      required: true,
      values: ['buy', 'sell', 'buy_to_cover', 'sell_short', 'close', 'cancel'],
      comments:
        'sell_short is a sell and buy_to_cover a buy. close closes the positions of the symbol (with a quantity: ' +
        'that many units, oldest position first); cancel cancels its pending orders.',
    },
    quantity: {
      required: true,
      examples: [1, 1000, 0.5],
      comments:
        'In units of the symbol (1000 EURUSD is 0.01 lot; 1 XAUUSD is one ounce), at most 2 decimals: cTrader ' +
        "counts volume in hundredths of a unit. It must fit the symbol's minimum, step and maximum volume.",
    },
    quantity_type: { values: ['fixed'] },
    type: { values: ['market', 'limit', 'stop', 'stop_limit'] },
    limit_price: {
      examples: [2650.5],
      comments:
        'For limit and stop_limit orders. A stop_limit is sent as cTrader sends it: the stop price and a ' +
        'slippage in points up to the limit, so the limit must be at or beyond the stop (above for a buy). ' +
        "Prices go in the symbol's digits, never past yours: a buy's rounded down, a sell's up.",
    },
    stop_price: { examples: [2700], comments: 'For stop and stop_limit orders.' },
    take_profit_price: {
      examples: [2700],
      comments:
        'Absolute, on limit, stop and stop_limit orders. A market order takes its take profit as a distance: ' +
        'extra.take_profit_distance.',
    },
    stop_loss_price: {
      examples: [2600],
      comments: 'Absolute, on limit, stop and stop_limit orders; a market order takes stop_loss_price_distance.',
    },
    stop_loss_price_distance: {
      examples: [5, 0.005],
      comments:
        'The stop loss as a distance from the entry price (5 = 5 USD on XAUUSD, 0.005 = 50 pips of EURUSD), on any order type.',
    },
    group: { values: ['bracket'], comments: 'Optional: a take profit or stop loss already makes a bracket.' },
    duration: {
      values: ['gtc', 'gtd', 'ioc', 'fok'],
      unsupported: { day: 'cTrader has no day orders: use gtd with extra.expiration_time' },
      comments:
        'gtc: good till canceled (market orders execute at once whatever it says); gtd: good till ' +
        'extra.expiration_time; ioc: immediate or cancel; fok: fill or kill.',
    },
    client_id: {
      examples: ['my-order-1'],
      comments: 'Our signal id is sent as cTrader’s clientOrderId (up to 50 characters) to find the order again.',
    },
    extra: {
      values: ['take_profit_distance', 'expiration_time', 'label', 'comment'],
      examples: ['{"take_profit_distance": 10}', '{"expiration_time": "2026-12-31T21:00:00Z"}', '{"label": "bot-1"}'],
      comments:
        'take_profit_distance: the take profit as a distance from the entry price (market orders). ' +
        'expiration_time: when a gtd order expires (ISO time or ms). label (100 characters) and comment (512) are ' +
        'shown in cTrader.',
    },
  },
};
