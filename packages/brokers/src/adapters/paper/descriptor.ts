// What the paper broker supports, declared once: the docs screen, the playground and the order
// validator read it. Only what the simulator really does is listed.
import type { BrokerDescriptor } from '../../core/broker.ts';
import { PAPER_CLASSES, PAPER_TITLE } from './simulator.ts';

export const paperDescriptor: BrokerDescriptor = {
  name: 'paper',
  title: PAPER_TITLE,
  status: 'active',
  has: {
    previewOrder: true,
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
  clientOrderId: { maxLength: 255, pattern: '^.+$' },
  authentication: {
    type: 'credentials',
    credentials: [],
    help: 'No brokerage account needed: connecting opens a simulated cash account in USD.',
  },
  reference: {
    symbol: {
      required: true,
      examples: ['AAPL', 'BTCUSD', 'EURUSD'],
      examplesClass: ['stock', 'crypto', 'forex'],
      examplesComment: 'Any symbol trades; prices are simulated (or taken from extra.price).',
    },
    class: { values: [...PAPER_CLASSES], comments: 'Stocks and crypto trade in fractions; forex in whole units.' },
    action: {
      required: true,
      values: ['buy', 'sell', 'sell_short', 'buy_to_cover', 'close', 'cancel'],
      comments:
        'A cash account: sell only what you hold; sell_short opens a short, buy_to_cover closes it. ' +
        "close cancels the symbol's open orders and flattens its position; cancel cancels its open orders.",
    },
    quantity: { required: true, examples: [1, 10, 0.5], comments: 'Not used by close and cancel.' },
    quantity_type: {
      values: ['fixed', 'percent_of_equity', 'cash', 'percent_of_position'],
      comments: 'percent_of_equity 50 buys half of the equity; cash is an amount in USD.',
    },
    type: { values: ['market', 'limit', 'stop', 'stop_limit'] },
    limit_price: { examples: [185.5], comments: 'Required for limit and stop_limit orders.' },
    stop_price: { examples: [195], comments: 'Required for stop and stop_limit orders.' },
    take_profit_price: {
      examples: [200],
      comments:
        'buy and sell_short only: a limit exit placed when the entry fills; it cancels the stop loss when it fills.',
    },
    stop_loss_price: {
      examples: [180],
      comments:
        'buy and sell_short only: a stop exit placed when the entry fills; it cancels the take profit when it fills.',
    },
    stop_loss_price_distance: { examples: [5], comments: 'Stop loss this far from the entry fill price.' },
    stop_loss_price_percent: { examples: [2], comments: 'Stop loss this percentage away from the entry fill price.' },
    duration: {
      values: ['day', 'gtc', 'ioc', 'fok'],
      comments: 'day orders expire at 20:00 UTC; ioc and fok orders not marketable at once are canceled.',
    },
    client_id: {
      examples: ['my-order-1'],
      comments: 'A repeated client_id places nothing and returns the first response.',
    },
    extra: {
      values: ['price'],
      examples: ['{"price": "{{close}}"}'],
      comments:
        'extra.price: the market price when the alert fired; market orders fill at it and resting orders follow it.',
    },
  },
};
