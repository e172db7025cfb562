// What the Interactive Brokers adapter supports, declared once (docs screen, playground, order
// validator). Grounded in broker-specs/ibkr (WIRE.md, IBKR's Web API description 2.29): one
// order ticket per instrument (conid), brackets by parentId, combos by conidex, cOID as our id.
import { ORDER_ACTIONS } from '@router/orders';
import type { BrokerDescriptor } from '../../core/broker.ts';

export const IBKR_TITLE = 'Interactive Brokers';
/** The hosted Web API (OAuth); a Client Portal Gateway is https://localhost:5000/v1/api. */
export const IBKR_BASE_URL = 'https://api.ibkr.com/v1/api';

/** The consumer key that selects the operator's Client Portal Gateway instead of OAuth. */
export const GATEWAY_CONSUMER_KEY = 'gateway';

export const ibkrDescriptor: BrokerDescriptor = {
  name: 'ibkr',
  title: IBKR_TITLE,
  status: 'beta',
  scale: 1.1,
  baseUrl: IBKR_BASE_URL,
  has: {
    previewOrder: true,
    cancelOrder: true,
    // No close call: the adapter sends an opposite market order for the position.
    closePosition: 'emulated',
    getHoldings: true,
    // A new live session token before the 24-hour one runs out.
    refresh: true,
    // No lookup by cOID (WIRE.md §6): live orders and trades echo it as order_ref.
    findOrderByClientId: false,
    findOrderByBrokerId: true,
    listRecentOrders: true,
    // IBKR refuses a cOID used in the last 24 hours ("Local order ID=… is already registered").
    idempotencyKey: true,
    brackets: true,
    multiLeg: true,
  },
  // No documented limit: our 20-character signal ids are far inside any.
  clientOrderId: { maxLength: 64, pattern: '^[\\x21-\\x7e]+$' },
  exceptions: {
    broad: {
      'is already registered': 'DuplicateOrder',
      "doesn't exist": 'OrderNotFound',
      insufficient: 'InsufficientFunds',
      'buying power': 'InsufficientFunds',
    },
  },
  authentication: {
    type: 'credentials',
    credentials: [
      'consumerKey',
      'accessToken',
      'accessTokenSecret',
      'signaturePrivateKey',
      'encryptionPrivateKey',
      'dhPrime',
    ],
    help:
      "OAuth 1.0a from IBKR's self-service portal: the consumer key, the access token and its secret, your private " +
      'signature and encryption keys (PEM) and the Diffie-Hellman prime (hex, or the dhparam PEM). IBKR allows one ' +
      'brokerage session per username and this connection takes it over: use a username of its own. Through the ' +
      "operator's Client Portal Gateway instead: consumer key gateway, access token the operator's gateway " +
      'passphrase, and a dash in the other fields.',
  },
  reference: {
    symbol: {
      required: true,
      examples: ['AAPL', 'ES1!', 'AAPL  271217C00200000', 'EUR/USD', 'US500', '912828YK0', 'IPOF.WS', '#265598'],
      examplesClass: ['stock', 'future', 'option', 'forex', 'cfd', 'bond', 'warrant', 'stock'],
      examplesComment:
        'Stocks by ticker (BRK.B), futures as ESZ2026 or ES1! (the front contract), options in OCC form, forex ' +
        'pairs as IBKR lists them (EUR/USD, not USD/EUR), CFDs by underlying (AAPL) or index (US500, DE40, UK100), ' +
        'bonds by CUSIP or ISIN, warrants by ticker. Any contract by its IBKR contract id: #265598.',
    },
    class: {
      values: ['stock', 'option', 'future', 'forex', 'cfd', 'bond', 'warrant'],
      comments: 'Each symbol is resolved to its IBKR contract id (conid) once and remembered.',
    },
    action: {
      required: true,
      values: [...ORDER_ACTIONS],
      comments:
        'close cancels the open orders of the symbol and sends a market order for the position (or quantity); ' +
        'cancel cancels its open orders.',
    },
    quantity: {
      required: true,
      examples: [100, 1, 0.5],
      comments: 'Shares, contracts, bonds (face value) or base currency; fractions where the account allows them.',
    },
    quantity_type: { values: ['fixed'] },
    type: { values: ['market', 'limit', 'stop', 'stop_limit'] },
    limit_price: {
      examples: [150, -1.25],
      comments:
        'Required for limit and stop_limit orders. For a combo the net price: negative is a credit. US stock and ' +
        'option prices go on the cent ($0.0001 for a stock under $1), futures of known roots on their tick ' +
        '(ES: 0.25): a buy’s rounded down, a sell’s up.',
    },
    stop_price: { examples: [145], comments: 'Required for stop and stop_limit orders.' },
    take_profit_price: {
      examples: [165],
      comments: 'A limit exit (GTC) attached to the entry by parentId; with stop_loss_price a bracket.',
    },
    stop_loss_price: { examples: [140], comments: 'A stop exit (GTC) attached to the entry by parentId.' },
    duration: {
      values: ['day', 'gtc', 'ioc', 'opg', 'dyp', 'gcp'],
      comments:
        'dyp and gcp are day and GTC orders that may also fill outside regular trading hours (limit and stop ' +
        'limit orders only); IBKR keeps GTC orders until canceled.',
    },
    group: {
      values: ['bracket', 'combo'],
      comments: 'bracket: an entry with take profit and/or stop loss. combo: legs traded as one order.',
    },
    legs: {
      examples: [
        '[{"symbol":"SPY   271217C00600000","action":"buy_to_open","quantity":1},' +
          '{"symbol":"SPY   271217C00610000","action":"sell_to_open","quantity":1}]',
      ],
      comments:
        'US option and stock legs sent as one IBKR combo (USD); the ratio of each leg is its quantity divided by ' +
        'the greatest common divisor. Legs take no type or price: the net price goes in limit_price.',
    },
    client_id: {
      examples: ['my-order-1'],
      comments: 'Our signal id is sent as the IBKR cOID, which IBKR refuses to take twice within 24 hours.',
    },
  },
};
