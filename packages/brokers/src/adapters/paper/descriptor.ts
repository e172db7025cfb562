// What the paper broker supports, declared once: the docs screen, the playground and the order
// validator read it. Only what the simulator really does is listed.
import type { BrokerDescriptor } from '../../core/broker.ts';
import { thirdFriday } from './instruments.ts';
import { PAPER_CLASSES, PAPER_TITLE, PLACING_ACTIONS } from './placing.ts';

/** An SPY call expiring in December of next year: an example that stays tradable. */
function exampleOption(now: number): string {
  const expiry = new Date(thirdFriday(new Date(now).getUTCFullYear() + 1, 12));
  const date = expiry.toISOString().slice(2, 10).replaceAll('-', '');
  return `SPY_${date}C00600000`;
}

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
    multiLeg: true,
    lastPrice: true,
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
      examples: ['AAPL', 'BTCUSD', 'EURUSD', 'ES1!', exampleOption(Date.now()), 'US500'],
      examplesClass: ['stock', 'crypto', 'forex', 'future', 'option', 'cfd'],
      examplesComment:
        'Listed symbols only (a few hundred US stocks and ETFs and their options, major crypto and forex pairs, ' +
        'futures roots as ES1! or ESZ2026, index CFDs); others are refused with "Symbol not found". ' +
        'Prices are simulated (or taken from extra.price).',
    },
    class: {
      values: [...PAPER_CLASSES],
      comments:
        'Stocks trade in fractions of a share, crypto to 8 decimals, options and futures in whole contracts ' +
        '(100 shares per option; futures at their exchange multiplier), forex in units, CFDs to 0.01. ' +
        'Futures, forex and CFDs are margined; the rest is paid in full.',
    },
    action: {
      required: true,
      values: [...PLACING_ACTIONS, 'close', 'cancel'],
      comments:
        'A cash account: sell only what you hold; sell_short opens a short, buy_to_cover closes it ' +
        '(futures, forex and CFDs go short with sell). Options: buy_to_open, sell_to_open, buy_to_close, sell_to_close. ' +
        "close flattens the symbol's position and cancels its open orders (with a quantity: closes that part, " +
        'keeping the open orders; bracket exits shrink to what is left); cancel cancels its open orders.',
    },
    quantity: {
      required: true,
      examples: [1, 10, 0.5],
      comments:
        'Not used by cancel. Optional for close: a fixed quantity or percent_of_position closes that part of the ' +
        'position, at most what is held (cash and percent_of_equity are refused). For a multi-leg order, the ' +
        'quantity of each leg.',
    },
    quantity_type: {
      values: ['fixed', 'percent_of_equity', 'cash', 'percent_of_position'],
      comments: 'percent_of_equity 50 buys half of the equity; cash is an amount in USD (the notional).',
    },
    type: { values: ['market', 'limit', 'stop', 'stop_limit'], comments: 'Multi-leg orders: market or limit.' },
    limit_price: {
      examples: [150],
      comments:
        "Required for limit and stop_limit orders; snapped to the instrument's tick (a buy's down, a sell's up). " +
        'For a multi-leg order, the net price per combo (legs take no price of their own): positive for a debit ' +
        'paid, negative for a credit received.',
    },
    stop_price: { examples: [145], comments: 'Required for stop and stop_limit orders.' },
    take_profit_price: {
      examples: [165],
      comments:
        'Opening orders only (a sell too for futures, forex and CFDs): a limit exit placed when the entry fills; it cancels the stop loss when it fills.',
    },
    stop_loss_price: {
      examples: [140],
      comments:
        'Opening orders only (a sell too for futures, forex and CFDs): a stop exit placed when the entry fills; it cancels the take profit when it fills.',
    },
    stop_loss_price_distance: { examples: [5], comments: 'Stop loss this far from the entry fill price.' },
    stop_loss_price_percent: { examples: [2], comments: 'Stop loss this percentage away from the entry fill price.' },
    duration: {
      values: ['day', 'gtc', 'ioc', 'fok'],
      comments:
        'day orders expire at the next 20:00 UTC close on a weekday (crypto: on every day), so one placed on Friday evening works through Monday; ioc and fok orders not marketable at once are canceled.',
    },
    client_id: {
      examples: ['my-order-1'],
      comments: 'A repeated client_id places nothing and returns the first response.',
    },
    legs: {
      comments:
        'Options on one underlying, up to 8 legs, each contract in one leg, filled together (verticals, ' +
        'straddles, iron condors). ' +
        'A leg without a quantity of its own takes quantity: four legs and quantity 2, or legs of quantity 2 each, ' +
        'trade two condors.',
    },
    group: { values: ['combo'], comments: 'Multi-leg orders are combos.' },
    extra: {
      values: ['price'],
      examples: ['{"price": "{{close}}"}'],
      comments:
        'extra.price: the market price when the alert fired; market orders fill at it and resting orders follow it.',
    },
  },
};
