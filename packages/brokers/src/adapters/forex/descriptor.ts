// What the FOREX.com adapter supports, declared once (docs screen, playground, order validator).
// Grounded in broker-specs/forex/WIRE.md and City Index's CIAPI description (ciapi-meta.json):
// session logon, numeric market ids, market trades and stop/limit entry orders with attached
// stop and limit exits (IfDone). No order carries a client id: an order is found again by its id,
// or by market, direction, size and time (the weakest lookup there is).
import type { BrokerDescriptor } from '../../core/broker.ts';

export const FOREX_TITLE = 'FOREX.com';
export const FOREX_BASE_URL = 'https://ciapi.cityindex.com/TradingAPI';

export const forexDescriptor: BrokerDescriptor = {
  name: 'forex',
  title: FOREX_TITLE,
  status: 'beta',
  scale: 0.75,
  baseUrl: FOREX_BASE_URL,
  has: {
    // Market trades are simulated by FOREX.com (order/simulate/newtradeorder); entry orders are built only.
    previewOrder: true,
    cancelOrder: true,
    // No close call: an opposite trade names the positions it closes.
    closePosition: 'emulated',
    getHoldings: true,
    // The mid of the last bid and offer ticks (GET /market/{id}/tickhistory).
    lastPrice: true,
    // Logging on again with the stored password renews the session.
    refresh: true,
    findOrderByClientId: false,
    findOrderByBrokerId: true,
    listRecentOrders: true,
    idempotencyKey: false,
    brackets: true,
    multiLeg: false,
  },
  clientOrderId: null,
  // Refusals come as status reasons inside HTTP 200 answers, read into these texts (status.ts).
  exceptions: {
    broad: {
      'insufficient funds': 'InsufficientFunds',
      'margin requirement limit': 'InsufficientFunds',
      'must name an active order or open position': 'OrderNotFound',
    },
  },
  authentication: {
    type: 'credentials',
    credentials: ['userName', 'password', 'appKey'],
    referrerBase: 'https://www.forex.com',
    help:
      'FOREX.com gives API access on request: e-mail support.en@forex.com for an AppKey (usually 3 working days). ' +
      'Then enter the user name and password you sign in to FOREX.com with (demo logins connect the demo ' +
      'account) and the AppKey. The password is kept, encrypted, to renew the session FOREX.com opens.',
  },
  reference: {
    symbol: {
      required: true,
      examples: ['EUR/USD', 'GBPUSD', 'XAU/USD'],
      examplesClass: ['forex', 'forex', 'commodity'],
      examplesComment:
        'Currency and metal pairs (EUR/USD, EURUSD, EUR-USD), found among the markets your account may trade ' +
        'under the same name.',
    },
    class: { values: ['forex', 'commodity'], comments: 'Spot forex, and gold and silver against a currency.' },
    action: {
      required: true,
      values: ['buy', 'sell', 'close', 'cancel'],
      comments:
        'sell opens a short position when none is held. close trades the open positions of the pair flat; ' +
        'cancel cancels its working entry orders.',
    },
    quantity: {
      required: true,
      examples: [10000, 1000],
      minimum: 1000,
      comments:
        'Units of the base currency (1000 is a micro lot, 100000 a standard lot), at least the market’s minimum.',
    },
    quantity_type: { values: ['fixed'] },
    type: {
      values: ['market', 'limit', 'stop'],
      comments:
        'A limit buy must be below the market and a limit sell above it; stops the other way round. ' +
        'FOREX.com has no stop-limit order.',
    },
    limit_price: { examples: [1.085, 1.09], comments: 'The level of a limit entry order.' },
    stop_price: { examples: [1.095], comments: 'The level of a stop entry order.' },
    take_profit_price: {
      examples: [1.1],
      comments: 'A limit exit attached to the order (IfDone), good till canceled, for the same quantity.',
    },
    stop_loss_price: {
      examples: [1.07],
      comments: 'A stop exit attached to the order (IfDone), good till canceled, for the same quantity.',
    },
    group: { values: ['bracket'], comments: 'Optional: take_profit_price and stop_loss_price already make a bracket.' },
    duration: {
      values: ['day', 'gtc'],
      comments: 'For limit and stop orders: good for the day or good till canceled. Market trades fill at once.',
    },
  },
};
