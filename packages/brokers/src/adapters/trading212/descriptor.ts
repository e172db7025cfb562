// What the Trading 212 adapter supports, declared once (docs screen, playground, order validator).
// Grounded in Trading 212's public API v0 description (broker-specs/trading212): equities only,
// market, limit, stop and stop-limit orders, sells as negative quantities.
import type { BrokerDescriptor } from '../../core/broker.ts';
import type { BrokerEnvironments } from '../../core/environments.ts';

export const TRADING212_TITLE = 'Trading 212';
export const TRADING212_ENVIRONMENTS: BrokerEnvironments = {
  live: 'https://live.trading212.com',
  demo: 'https://demo.trading212.com',
};

export const trading212Descriptor: BrokerDescriptor = {
  name: 'trading212',
  title: TRADING212_TITLE,
  status: 'beta',
  scale: 0.65,
  baseUrl: TRADING212_ENVIRONMENTS.live,
  has: {
    previewOrder: false,
    cancelOrder: true,
    // No close call: the adapter sends a market sell of the position.
    closePosition: 'emulated',
    getHoldings: true,
    refresh: false,
    findOrderByClientId: false,
    findOrderByBrokerId: true,
    // Pending orders and the order history, matched by terms: Trading 212 keeps no client order id.
    listRecentOrders: true,
    idempotencyKey: false,
    brackets: false,
    multiLeg: false,
  },
  clientOrderId: null,
  // Refusals name a code: {"code": "InsufficientFreeForStocksException", "clarification": "…"}.
  exceptions: {
    exact: {
      InsufficientFreeForStocksException: 'InsufficientFunds',
      InsufficientResources: 'InsufficientFunds',
      InsufficientValueForStocksSell: 'InsufficientFunds',
    },
  },
  authentication: {
    type: 'credentials',
    credentials: ['apiKey', 'apiSecret'],
    help:
      'In the Trading 212 app: Settings, API (Beta), Generate API key, with the permissions account, metadata, ' +
      'orders read, orders execute and portfolio. Paste the key and its secret. Invest and Stocks ISA accounts ' +
      'only; a practice (demo) key connects the practice account, found automatically.',
  },
  reference: {
    symbol: {
      required: true,
      examples: ['AAPL', 'AAPL_US_EQ', 'VODl_EQ'],
      examplesClass: ['stock', 'stock', 'stock'],
      examplesComment:
        'A ticker (AAPL, the US listing when there are several) or Trading 212’s own instrument id ' +
        '(AAPL_US_EQ, VODl_EQ for Vodafone in London), from its instrument list.',
    },
    class: { values: ['stock'], comments: 'Stocks and ETFs; no CFDs, options or crypto through the API.' },
    action: {
      required: true,
      values: ['buy', 'sell', 'close', 'cancel'],
      comments:
        'No short selling: sell only what you hold. close sells the whole position at market (with a quantity, that many shares of it); cancel cancels ' +
        "the symbol's pending orders.",
    },
    quantity: {
      required: true,
      examples: [10, 0.5],
      comments: 'Shares, fractions allowed where the instrument allows.',
    },
    quantity_type: { values: ['fixed'] },
    type: {
      values: ['market', 'limit', 'stop', 'stop_limit'],
      comments: 'Trading 212 has at times allowed only market orders on live accounts through its API.',
    },
    limit_price: { examples: [185.5], comments: 'Required for limit and stop_limit orders.' },
    stop_price: { examples: [180], comments: 'Required for stop and stop_limit orders.' },
    duration: {
      values: ['day', 'gtc'],
      comments: 'For limit, stop and stop_limit orders. Market orders are day orders (queued to the next open).',
    },
    extra: {
      values: ['extended_hours'],
      examples: ['{"extended_hours": true}'],
      comments: 'Market orders only: allow filling outside regular trading hours.',
    },
  },
};
