// What the tastytrade adapter supports, declared once (docs screen, playground, order validator).
// Grounded in broker-specs/tastytrade (WIRE.md, tastytrade's order reference and its fixtures).
import { ORDER_ACTIONS } from '@router/orders';
import type { BrokerDescriptor } from '../../core/broker.ts';

export const TASTYTRADE_TITLE = 'tastytrade';
export const TASTYTRADE_BASE_URL = 'https://api.tastyworks.com';
/** The sandbox ("cert") API; its OAuth app and accounts are separate from production's. */
export const TASTYTRADE_SANDBOX_URL = 'https://api.cert.tastyworks.com';

export const tastytradeDescriptor: BrokerDescriptor = {
  name: 'tastytrade',
  title: TASTYTRADE_TITLE,
  status: 'beta',
  scale: 0.9,
  baseUrl: TASTYTRADE_BASE_URL,
  has: {
    // POST …/orders/dry-run: the same body, checked and priced, never routed.
    previewOrder: true,
    cancelOrder: true,
    // No close call: the adapter sends a market order for the position.
    closePosition: 'emulated',
    getHoldings: true,
    refresh: true,
    // No lookup by our id; the order list echoes it (external-identifier) and is searched by time.
    findOrderByClientId: false,
    findOrderByBrokerId: true,
    listRecentOrders: true,
    // tastytrade does not deduplicate repeated submissions, even with the same external-identifier.
    idempotencyKey: false,
    brackets: true,
    multiLeg: true,
  },
  // The external-identifier's limit is not documented: ours stays within a conservative 36
  // characters of letters, digits, '-' and '_' (the signal id, or a hash of it).
  clientOrderId: { maxLength: 36, pattern: '^[A-Za-z0-9_-]+$' },
  exceptions: {
    broad: {
      'buying power': 'InsufficientFunds',
      insufficient: 'InsufficientFunds',
      'not enough cash': 'InsufficientFunds',
      'exceeds available': 'InsufficientFunds',
    },
  },
  authentication: {
    type: 'open',
    credentials: ['code'],
    referrerBase: 'https://my.tastytrade.com',
    help:
      'Sign in at tastytrade and allow access (read and trade) to the accounts you want to trade. The ' +
      'connection lasts until you revoke it at tastytrade.',
  },
  reference: {
    symbol: {
      required: true,
      examples: ['AAPL', 'AAPL  260618C00200000', 'ESU2026', 'BTC/USD'],
      examplesClass: ['stock', 'option', 'future', 'crypto'],
      examplesComment:
        'Stocks and ETFs by ticker (BRK.B is sent as BRK/B); equity options in the OCC form; futures by ' +
        'contract month (ESU2026, ESU26 or /ESU6, sent as /ESU6; continuous ES1! is not accepted); crypto ' +
        'against USD (BTC/USD).',
    },
    class: {
      values: ['stock', 'option', 'future', 'crypto'],
      comments: 'US stocks and ETFs, equity and index options, futures and cryptocurrencies.',
    },
    action: {
      required: true,
      values: [...ORDER_ACTIONS],
      byClass: { crypto: ['buy', 'sell', 'close', 'cancel'] },
      comments:
        'Stocks: buy (Buy to Open), sell (Sell to Close), sell_short (Sell to Open), buy_to_cover (Buy to ' +
        'Close). Futures: buy and sell. Crypto: buy and sell. close cancels the symbol’s live ' +
        'orders and sends a market order for the position (a part with quantity, leaving the orders); ' +
        "cancel cancels the symbol's live orders.",
    },
    quantity: {
      required: true,
      examples: [100, 1, 0.5],
      comments: 'Shares, contracts or coins; with quantity_type cash, the amount in USD (stocks and crypto).',
    },
    quantity_type: {
      values: ['fixed', 'cash'],
      comments: 'cash: a notional market order for that many dollars (tastytrade Notional Market).',
    },
    type: {
      values: ['market', 'limit', 'stop', 'stop_limit'],
      comments: 'Multi-leg orders take market or limit (a net price).',
    },
    limit_price: {
      examples: [175.25, -1.25],
      comments:
        'Required for limit and stop_limit. For a multi-leg order the net price: positive is a debit paid, ' +
        'negative a credit received. Stock and option prices go on the cent ($0.0001 for a stock under $1), ' +
        'futures on their contract’s tick (ES in quarters): a buy’s rounded down, a sell’s up (stops and exits too).',
    },
    stop_price: { examples: [170], comments: 'Required for stop and stop_limit orders (tastytrade stop-trigger).' },
    take_profit_price: {
      examples: [185],
      comments:
        'An entry with exits (a tastytrade OTOCO, or OTO with one exit): a limit exit, good till canceled, ' +
        'placed when the entry fills; one exit cancels the other.',
    },
    stop_loss_price: { examples: [165], comments: 'As take_profit_price, a stop exit. Either or both may be given.' },
    duration: {
      values: ['day', 'gtc', 'gtd', 'ioc'],
      comments: 'day, good till canceled, good till date (give extra.gtc_date) or immediate or cancel.',
    },
    group: {
      values: ['bracket', 'combo'],
      comments: 'bracket: an entry with take profit and/or stop loss. combo: a multi-leg order (legs).',
    },
    legs: {
      examples: [
        '[{"symbol":"SPY   271217P00540000","action":"buy_to_open","quantity":1},' +
          '{"symbol":"SPY   271217P00550000","action":"sell_to_open","quantity":1}]',
      ],
      comments:
        'Up to 4 legs sent as one order: option legs, or stock and option legs (a covered call). The net ' +
        'price goes in limit_price, not per leg.',
    },
    client_id: {
      examples: ['my-order-1'],
      comments:
        'Our signal id is sent as tastytrade’s external-identifier; a signal placed before is found by it, not ' +
        'sent again.',
    },
    extra: {
      values: ['session', 'gtc_date'],
      examples: ['{"session": "extended"}', '{"gtc_date": "2026-12-31"}'],
      comments:
        'session: regular (default), extended (pre- and after-market) or overnight (extended plus the ' +
        'overnight session), with day or gtc. gtc_date: the last day (YYYY-MM-DD) of a gtd order.',
    },
  },
};
