// What the MetaTrader adapter supports (MT4 and MT5 through MetaApi's cloud REST API), declared
// once: the docs screen, the playground and the order validator read it. Grounded in
// broker-specs/metatrader/WIRE.md: MetaApi's trade model, its return codes and error bodies.
import type { BrokerDescriptor } from '../../core/broker.ts';

export const METATRADER_TITLE = 'MetaTrader';
/** MetaApi's provisioning API: accounts, their deployment, the known-server search. */
export const PROVISIONING_URL = 'https://mt-provisioning-api-v1.agiliumtrade.agiliumtrade.ai';

/** The trading API of the region an account is deployed in ("new-york", "london", …). */
export function regionTradingUrl(region: string): string {
  return `https://mt-client-api-v1.${region}.agiliumtrade.ai`;
}

/** The order comment and MetaApi's clientId share 26 characters (WIRE §4). */
export const CLIENT_ID_BUDGET = 26;
/** What a signal's client_id (the comment) may take of it, so our id keeps at least 16. */
export const MAX_COMMENT_LENGTH = 10;

export const metatraderDescriptor: BrokerDescriptor = {
  name: 'metatrader',
  title: METATRADER_TITLE,
  status: 'beta',
  scale: 0.8,
  baseUrl: PROVISIONING_URL,
  // Lots (the quantity parameter below): no notional can be known of them.
  quantityInLots: true,
  has: {
    previewOrder: false,
    cancelOrder: true,
    // POSITIONS_CLOSE_SYMBOL closes every position of a symbol.
    closePosition: true,
    getHoldings: true,
    // The bid/ask midpoint of …/symbols/:symbol/current-price.
    lastPrice: true,
    // A deleted connection undeploys the account the site added (a running terminal is billed).
    disconnect: true,
    // Tokens are not renewable through the API: a connection with an expiring token is reconnected.
    refresh: false,
    // No query by clientId: the open orders and the order history are searched for it (listRecentOrders).
    findOrderByClientId: false,
    findOrderByBrokerId: true,
    listRecentOrders: true,
    // clientId is a tracking tag: MetaApi does not refuse a repeated one.
    idempotencyKey: false,
    brackets: true,
    multiLeg: false,
  },
  // MetaApi's clientId: letters, digits and _, within 26 characters shared with the comment.
  clientOrderId: { maxLength: CLIENT_ID_BUDGET, pattern: '^[A-Za-z0-9_]+$' },
  // Matched against a trade answer's stringCode and MetaApi's error names and detail codes
  // (client.ts, result.ts); what is not named here is an InvalidOrder.
  exceptions: {
    exact: {
      TRADE_RETCODE_NO_MONEY: 'InsufficientFunds',
      TRADE_RETCODE_TOO_MANY_REQUESTS: 'RateLimited',
      TRADE_RETCODE_CONNECTION: 'BrokerUnavailable',
      TRADE_RETCODE_TIMEOUT: 'BrokerUnavailable',
      TRADE_RETCODE_DISCONNECTED_BEFORE_TRADE: 'BrokerUnavailable',
      TRADE_RETCODE_DISCONNECTED_DURING_TRADE: 'BrokerUnavailable',
      ERR_TRADE_ORDER_NOT_FOUND: 'OrderNotFound',
      E_AUTH: 'AuthenticationError',
      E_SERVER_TIMEZONE: 'BrokerUnavailable',
      UnauthorizedError: 'AuthenticationError',
      // 403: the token was read (a bad or revoked one is 401 UnauthorizedError, WIRE.md §8) and this
      // call is not allowed to it: a refusal of that call, not of the connection.
      ForbiddenError: 'InvalidOrder',
      TooManyRequestsError: 'RateLimited',
      InternalError: 'BrokerUnavailable',
    },
    broad: {
      'not enough money': 'InsufficientFunds',
      'failed to authenticate to your broker': 'AuthenticationError',
    },
  },
  authentication: {
    type: 'credentials',
    credentials: ['login', 'password', 'server'],
    branchSearch: 'server',
    referrerBase: 'https://app.metaapi.cloud',
    help:
      'Your MetaTrader 4 or 5 account number (login), its master password (an investor password can only ' +
      'read) and the server your broker gave you, as the MT terminal shows it (for example ICMarketsSC-Demo). ' +
      'The account runs in MetaApi’s cloud terminal, which keeps the password. Already added the account at ' +
      'MetaApi yourself? Enter its MetaApi account id as the login and a MetaApi API token as the password.',
  },
  reference: {
    symbol: {
      required: true,
      examples: ['EURUSD', 'XAUUSD', 'BTCUSD', 'US30', 'AAPL'],
      examplesClass: ['forex', 'commodity', 'crypto', 'index', 'stock'],
      examplesComment:
        'The symbol as your MT server names it. Pairs may be written EURUSD or EUR/USD; a suffix or prefix ' +
        'the server adds (EURUSD.m, EURUSDm, #AAPL) is found when only one symbol fits, and letter case ' +
        'follows the server.',
      serverNames: true,
    },
    class: {
      values: ['forex', 'crypto', 'commodity', 'index', 'stock'],
      comments:
        'MetaTrader servers trade currency pairs, metals, energies, index and stock CFDs and crypto as one kind ' +
        'of contract: pick the class of the underlying. Every order goes out under the server’s symbol name.',
    },
    action: {
      required: true,
      values: ['buy', 'sell', 'sell_short', 'buy_to_cover', 'close', 'cancel'],
      comments:
        'sell opens a short position when none is held (sell_short and buy_to_cover are sell and buy). close ' +
        'cancels the symbol’s pending orders and closes its positions (a part of each with quantity_type ' +
        'percent_of_position); cancel cancels its pending orders.',
    },
    quantity: {
      required: true,
      examples: [0.1, 0.01, 1],
      comments: 'Lots: 1 lot of EURUSD is 100,000 EUR. The server’s minimum and step apply (usually 0.01).',
    },
    quantity_type: { values: ['fixed', 'percent_of_position'], comments: 'percent_of_position with close only.' },
    type: {
      values: ['market', 'limit', 'stop', 'stop_limit'],
      comments: 'stop_limit needs MetaTrader 5: at stop_price a limit order at limit_price is placed.',
    },
    limit_price: { examples: [1.075], comments: 'Required for limit and stop_limit orders.' },
    stop_price: { examples: [1.09], comments: 'Required for stop and stop_limit orders.' },
    take_profit_price: {
      examples: [1.085],
      comments: 'Attached to the order: MetaTrader closes the position at this price.',
    },
    stop_loss_price: {
      examples: [1.07],
      comments: 'Attached to the order: MetaTrader closes the position at this price.',
    },
    duration: {
      values: ['day', 'gtc', 'gtd', 'ioc', 'fok'],
      comments:
        'Market orders: day (default), or ioc / fok as the filling mode. Pending orders: gtc (default), day ' +
        '(MetaTrader 5: canceled at the end of the trading day) or gtd with extra.expiration.',
    },
    client_id: {
      examples: ['tv1'],
      pattern: `^[A-Za-z0-9_]{1,${MAX_COMMENT_LENGTH}}$`,
      comments:
        'Up to 10 letters, digits or _, shown as the order’s comment in MetaTrader. It shares 26 characters with ' +
        'our signal id (MetaApi’s clientId), which is then sent as a 16 to 25 character hash of itself.',
    },
    extra: {
      values: ['expiration', 'magic'],
      examples: ['{"expiration": "2025-06-30T21:00:00Z"}', '{"magic": 123456}'],
      comments:
        'expiration: when a gtd pending order expires (ISO 8601 time). magic: the expert advisor number the ' +
        'order carries (default: the account’s).',
    },
  },
};
