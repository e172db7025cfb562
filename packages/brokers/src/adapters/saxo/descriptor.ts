// What the Saxo adapter supports, declared once (docs screen, playground, order validator).
// Grounded in broker-specs/saxo/WIRE.md (Saxo OpenAPI): instruments by Uic and AssetType, entry
// orders with related take-profit and stop-loss orders, OCO pairs, Saxo's precheck. Saxo also trades CFDs,
// but SPEC §9 keeps the cfd class for ibkr alone, so Saxo's CFDs are not offered here.
import { ORDER_ACTIONS } from '@router/orders';
import type { BrokerDescriptor } from '../../core/broker.ts';

export const SAXO_TITLE = 'Saxo';
export const SAXO_BASE_URL = 'https://gateway.saxobank.com/openapi';
/** The simulation (paper) environment; its apps and accounts are separate from live ones. */
export const SAXO_SIM_URL = 'https://gateway.saxobank.com/sim/openapi';

export const saxoDescriptor: BrokerDescriptor = {
  name: 'saxo',
  title: SAXO_TITLE,
  status: 'beta',
  scale: 1.5,
  baseUrl: SAXO_BASE_URL,
  has: {
    // POST /trade/v2/orders/precheck: the same body, checked and costed, nothing placed.
    previewOrder: true,
    cancelOrder: true,
    // No close call: a market order against the net position.
    closePosition: 'emulated',
    getHoldings: true,
    refresh: true,
    // ExternalReference (our id) is echoed, but nothing searches by it.
    findOrderByClientId: false,
    findOrderByBrokerId: true,
    // Open orders and the order activities of the window, matched by ExternalReference.
    listRecentOrders: true,
    // Saxo refuses an identical order with the same X-Request-ID only within 15 seconds (409): a
    // lost answer is found again by ExternalReference, not by resending.
    idempotencyKey: false,
    brackets: true,
    // One-cancels-other pairs (group oco) are Saxo's OCO: two stand-alone orders in one request.
    multiLeg: true,
  },
  // ExternalReference: at most 50 characters (Saxo's schema); ours stays within letters, digits, - and _.
  clientOrderId: { maxLength: 50, pattern: '^[A-Za-z0-9_-]+$' },
  exceptions: {
    broad: {
      insufficient: 'InsufficientFunds',
      'not enough': 'InsufficientFunds',
      'exceeds the available': 'InsufficientFunds',
    },
  },
  authentication: {
    type: 'open',
    credentials: ['code'],
    referrerBase: 'https://live.logonvalidation.net',
    help:
      'Sign in at Saxo and allow access; the app must be enabled for trading. Saxo keeps the connection ' +
      'only while it is renewed: after a long pause without signals, connect again.',
  },
  reference: {
    symbol: {
      required: true,
      examples: ['AAPL', 'EUR/USD', 'ESZ2026', 'AAPL  261218C00200000'],
      examplesClass: ['stock', 'forex', 'future', 'option'],
      examplesComment:
        'Saxo trades by instrument id: the symbol is looked up at Saxo (stocks and ETFs by ticker, their ' +
        'primary listing unless extra.exchange names another; currency pairs; futures by contract month; ' +
        'listed options in the OCC form).',
    },
    class: {
      values: ['stock', 'forex', 'future', 'option'],
      comments:
        'Stocks and ETFs, FX spot, futures and listed options. CFDs are not offered (SPEC: cfd is for ibkr only).',
    },
    action: {
      required: true,
      values: [...ORDER_ACTIONS],
      comments:
        'buy and buy_to_cover buy, sell and sell_short sell; options open or close (ToOpen, ToClose). close ' +
        "sends a market order against the net position; cancel cancels the instrument's open orders.",
    },
    quantity: {
      required: true,
      examples: [100, 10_000, 1],
      comments: 'Shares, currency units of the base currency (10000 EUR/USD), or contracts.',
    },
    quantity_type: { values: ['fixed'] },
    type: {
      values: ['market', 'limit', 'stop', 'stop_limit'],
      comments:
        'stop is StopIfTraded on exchanges and Stop for FX; stop_limit triggers at stop_price and limits at limit_price.',
    },
    limit_price: {
      examples: [175.25, 1.0825],
      comments:
        'Required for limit and stop_limit orders. US stock, ETF and option prices (in USD) go on the cent ' +
        '($0.0001 for a stock under $1), futures of known roots on their tick (ES: 0.25): a buy’s rounded down, ' +
        'a sell’s up; others as given.',
    },
    stop_price: { examples: [170], comments: 'Required for stop and stop_limit orders (the trigger).' },
    take_profit_price: {
      examples: [185],
      comments:
        'A related limit order (good till canceled) that closes the entry; one cancels the other with the stop loss.',
    },
    stop_loss_price: {
      examples: [165],
      comments: 'A related stop order (good till canceled). Either or both may be given.',
    },
    duration: {
      values: ['day', 'gtc', 'gtd', 'ioc', 'fok', 'ato', 'atc'],
      comments:
        'day, good till canceled, good till date (give extra.expiration), immediate or cancel, fill or kill, ' +
        'at the opening, at the close.',
    },
    group: {
      values: ['bracket', 'oco'],
      comments:
        'bracket: an entry with take profit and/or stop loss. oco: two limit orders (legs), the fill of one ' +
        'cancels the other (Saxo OCO).',
    },
    legs: {
      examples: [
        '[{"symbol":"EUR/USD","action":"buy","quantity":100000,"limit_price":1.0755},' +
          '{"symbol":"EUR/USD","action":"sell","quantity":100000,"limit_price":1.0955}]',
      ],
      comments:
        'Only for group oco: exactly two limit legs, each with its limit_price; Saxo may place one and refuse the other.',
    },
    client_id: {
      examples: ['my-order-1'],
      comments: 'A signal repeating a client_id places nothing. Our signal id is sent as Saxo’s ExternalReference.',
    },
    extra: {
      values: ['expiration', 'exchange'],
      examples: ['{"expiration": "2026-06-30"}', '{"exchange": "NYSE"}'],
      comments:
        'expiration: the date (or date and time, YYYY-MM-DDTHH:MM) a gtd order ends. exchange: the listing to ' +
        'trade (Saxo ExchangeId, e.g. NASDAQ, NYSE) where a ticker is listed on several; else its primary listing.',
    },
  },
};
