// What the Zerodha adapter supports, declared once (docs screen, playground, order validator).
// Grounded in broker-specs/zerodha (WIRE.md: Kite Connect v3, pykiteconnect, kiteconnect-mocks).
import { ORDER_ACTIONS } from '@router/orders';
import type { BrokerDescriptor } from '../../core/broker.ts';

export const ZERODHA_TITLE = 'Zerodha';
export const KITE_API_URL = 'https://api.kite.trade';
/** Where users sign in (the login page is not on the API host). */
export const KITE_LOGIN_URL = 'https://kite.zerodha.com';

/** The tag Kite keeps for us: letters and digits, at most 20 (WIRE.md §4). */
export const KITE_TAG_RULE = { maxLength: 20, pattern: '^[A-Za-z0-9]+$' };

export const zerodhaDescriptor: BrokerDescriptor = {
  name: 'zerodha',
  title: ZERODHA_TITLE,
  status: 'beta',
  scale: 0.7,
  baseUrl: KITE_API_URL,
  has: {
    previewOrder: false,
    cancelOrder: true,
    // No close call: the adapter sends the opposite market order for the position (or holding).
    closePosition: 'emulated',
    getHoldings: true,
    // last_price of GET /quote/ltp.
    lastPrice: true,
    // Kite renews no access token for ordinary apps: a new login each day.
    refresh: false,
    // No lookup by tag: the day's order book echoes it (`tag`), and it is searched there.
    findOrderByClientId: false,
    findOrderByBrokerId: true,
    listRecentOrders: true,
    // Kite does not refuse a repeated tag.
    idempotencyKey: false,
    brackets: true,
    multiLeg: false,
  },
  clientOrderId: KITE_TAG_RULE,
  // Kite names the kind of every error in `error_type` (api.ts reads it through this table);
  // the one message that matters on its own is an unknown order id.
  exceptions: {
    exact: {
      TokenException: 'AuthenticationError',
      // 403 like TokenException, but the session is good: this call is not allowed to the app or
      // the account (a personal app asking for quotes, a segment not enabled). A refusal of it alone.
      PermissionException: 'InvalidOrder',
      // Kite's "user account related errors" (403): a refusal of this call by the account, not of the
      // session; TokenException alone says the session is gone (WIRE.md §8).
      UserException: 'InvalidOrder',
      InputException: 'InvalidOrder',
      // HTTP 500, "the order could not be placed/modified/fetched" (WIRE.md §8): Kite's order system
      // failing names no reason the order was refused, and an order it answers so for may stand:
      // an unknown outcome, settled by finding the tag in the day's book, never a refusal.
      OrderException: 'BrokerUnavailable',
      MarginException: 'InsufficientFunds',
      HoldingException: 'InsufficientFunds',
      NetworkException: 'BrokerUnavailable',
      DataException: 'BrokerUnavailable',
      GeneralException: 'BrokerUnavailable',
      "Couldn't find that `order_id`.": 'OrderNotFound',
    },
  },
  authentication: {
    type: 'open',
    credentials: ['request_token'],
    referrerBase: KITE_LOGIN_URL,
    help:
      'Sign in at Kite with your Zerodha user id, password and TOTP to allow this app to trade. Kite ends the ' +
      'session at 6 AM IST the next morning and offers no renewal: reconnect every trading day before the ' +
      'market opens (the connection shows it is about to expire until then).',
  },
  reference: {
    symbol: {
      required: true,
      examples: ['NSE:INFY', 'NFO:NIFTY27JUNFUT', 'NFO:NIFTY27JUN24000CE', 'MCX:GOLDPETAL27JULFUT'],
      examplesClass: ['stock', 'future', 'option', 'future'],
      examplesComment:
        'EXCHANGE:TRADINGSYMBOL as Kite lists it (NSE, BSE, NFO, BFO, MCX, CDS, BCD). Without an exchange, ' +
        'symbols ending in FUT, CE or PE go to NFO and others to NSE. Take derivative tradingsymbols from ' +
        "Kite's instrument list: weekly options use a date code (NIFTY2760324400CE).",
    },
    class: {
      values: ['stock', 'future', 'option'],
      comments: 'Stocks and ETFs on NSE and BSE; futures and options on NFO, BFO, MCX, CDS and BCD.',
    },
    action: {
      required: true,
      values: [...ORDER_ACTIONS],
      comments:
        'Sent as BUY or SELL. sell_short is an intraday sale (product MIS). close cancels the ' +
        "symbol's open orders and sends a market order for the position (or the holding); a close of part of " +
        'it keeps them (the exits of the part still held); cancel cancels them.',
    },
    quantity: {
      required: true,
      examples: [10, 75],
      comments: 'Whole shares; derivatives in multiples of the lot size (NIFTY: 75).',
    },
    quantity_type: {
      values: ['fixed', 'percent_of_position'],
      comments: 'percent_of_position only with close.',
    },
    type: {
      values: ['market', 'limit', 'stop', 'stop_limit'],
      comments: 'Sent as MARKET, LIMIT, SL-M (stop) and SL (stop_limit).',
    },
    limit_price: { examples: [1520.5], comments: 'Required for limit and stop_limit orders (Kite price).' },
    stop_price: { examples: [1500], comments: 'Required for stop and stop_limit orders (Kite trigger_price).' },
    stop_loss_price: {
      examples: [1480],
      comments:
        'A cover order (variety co, product CO): a market or limit entry with this stop-loss trigger. ' +
        'Kite has no take-profit leg.',
    },
    duration: {
      values: ['day', 'ioc'],
      comments: 'DAY or IOC. With extra.validity_ttl (minutes) a day order becomes a TTL order.',
    },
    client_id: {
      examples: ['my-order-1'],
      comments:
        'Our signal id is sent as the Kite tag (20 letters and digits; a longer id is hashed to fit), and a ' +
        "lost order is found by it in the day's order book.",
    },
    extra: {
      values: [
        'product',
        'variety',
        'market_protection',
        'disclosed_quantity',
        'validity_ttl',
        'iceberg_legs',
        'iceberg_quantity',
        'autoslice',
      ],
      examples: ['{"product": "MIS"}', '{"variety": "amo"}', '{"variety": "iceberg", "iceberg_legs": 5}'],
      comments:
        'product: CNC (delivery, default for stocks), MIS (intraday), NRML (default for derivatives) or MTF. ' +
        'variety: regular (default), amo (after market), co (cover, set by stop_loss_price) or iceberg ' +
        '(iceberg_legs 2 to 10; iceberg_quantity defaults to an even split). market_protection: for market and ' +
        'stop orders, -1 (automatic, the default) or 1 to 100 (%). disclosed_quantity, validity_ttl (minutes) ' +
        'and autoslice (true: Kite splits an order above the freeze quantity) as Kite takes them.',
    },
  },
};
