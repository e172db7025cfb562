// What the Tradier adapter supports, declared once: the docs screen, the playground and the order
// validator read it. Tradier publishes no API description file; this follows its public docs:
// POST /v1/accounts/{id}/orders, form-encoded, Bearer token.
import { ORDER_ACTIONS } from '@router/orders';
import type { BrokerDescriptor } from '../../core/broker.ts';
import type { BrokerEnvironments } from '../../core/environments.ts';

export const TRADIER_TITLE = 'Tradier';

/** Brokerage accounts and the paper-trading sandbox: separate origins and tokens. */
export const TRADIER_ENVIRONMENTS: BrokerEnvironments = {
  live: 'https://api.tradier.com',
  demo: 'https://sandbox.tradier.com',
};

export const tradierDescriptor: BrokerDescriptor = {
  name: 'tradier',
  title: TRADIER_TITLE,
  status: 'active',
  baseUrl: TRADIER_ENVIRONMENTS.live,
  scale: 1.2,
  has: {
    previewOrder: true,
    cancelOrder: true,
    // No close call: the adapter sends a market order for the position.
    closePosition: 'emulated',
    getHoldings: true,
    lastPrice: true,
    refresh: false,
    findOrderByClientId: false,
    findOrderByBrokerId: true,
    // The order list echoes our tag.
    listRecentOrders: true,
    idempotencyKey: false,
    brackets: false,
    multiLeg: true,
  },
  clientOrderId: { maxLength: 255, pattern: '^[A-Za-z0-9-]+$' },
  exceptions: {
    broad: {
      'buying power': 'InsufficientFunds',
      insufficient: 'InsufficientFunds',
      'not enough cash': 'InsufficientFunds',
      'not enough funds': 'InsufficientFunds',
      'order not found': 'OrderNotFound',
      'invalid order id': 'OrderNotFound',
    },
  },
  authentication: {
    type: 'credentials',
    credentials: ['accessToken'],
    help:
      'Copy an API access token from Tradier (Settings → API Access). Every account of the token is connected; ' +
      'a sandbox token connects the sandbox (demo) accounts.',
    referrerBase: 'https://brokerage.tradier.com',
  },
  reference: {
    symbol: {
      required: true,
      examples: ['AAPL', 'SPY240119C00450000', 'SPY240119P00440000'],
      examplesClass: ['stock', 'option', 'option'],
      examplesComment: 'US stocks and ETFs by ticker; options by OCC symbol (the underlying is taken from it).',
    },
    class: { values: ['stock', 'option'], comments: 'Whole shares and whole contracts only.' },
    action: {
      required: true,
      values: [...ORDER_ACTIONS],
      comments:
        'close cancels the symbol’s open orders and sends a market order for the position (long or short); ' +
        'a close of part of it keeps them (the exits of the part still held). cancel cancels its open orders.',
    },
    quantity: { required: true, examples: [10, 1], comments: 'Whole shares or contracts.' },
    quantity_type: {
      values: ['fixed', 'percent_of_position'],
      comments:
        'percent_of_position only with close (rounded down to whole shares or contracts; a part under one is refused).',
    },
    type: {
      values: ['market', 'limit', 'stop', 'stop_limit'],
      comments: 'Multi-leg orders take market or limit (a net price: Tradier debit, credit or even).',
    },
    limit_price: {
      examples: [185.5, 1.25, -0.8],
      comments:
        'Required for limit and stop_limit. For multi-leg orders the net price: positive debit, negative credit, 0 even.',
    },
    stop_price: { examples: [180], comments: 'Required for stop and stop_limit orders.' },
    duration: { values: ['day', 'gtc'] },
    group: { values: ['combo'], comments: 'A multi-leg option order (Tradier class multileg); set by legs.' },
    legs: {
      examples: [
        '[{"symbol": "SPY240119C00450000", "action": "buy_to_open", "quantity": 1}, {"symbol": "SPY240119C00460000", "action": "sell_to_open", "quantity": 1}]',
      ],
      comments: '2 to 4 option legs on one underlying; leg prices are not used (give the net limit_price).',
    },
    client_id: {
      examples: ['my-order-1'],
      comments:
        'Our signal id is sent as Tradier’s order tag (letters, digits and dashes); a signal placed before is found by it, not sent again.',
    },
  },
};
