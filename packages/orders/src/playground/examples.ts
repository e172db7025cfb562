// The six example orders of the documentation (SPEC §2), deep-linkable by `id`
// (/me/documentation/alpaca#iron-condor). Each knows what it needs from a provider's reference;
// when the reference lacks it the screen shows exampleUnavailableMessage(provider).

import { currentExample } from '../symbols/dated-examples.ts';
import {
  ORDER_PARAMETERS,
  type OrderClass,
  type OrderParameter,
  type Provider,
  type ProviderReference,
} from '../types.ts';
import { examplePrice, exampleQuantity, firstActionFor, providerClasses } from './sample.ts';

export interface OrderExample {
  /** Anchor for deep links. */
  id: string;
  title: string;
  description: string;
  body: Readonly<Record<string, string | number>>;
  /** Enumerated values the example needs beyond the literal ones in its body. */
  needs?: Partial<Record<OrderParameter, readonly string[]>>;
  /** Whether the body's symbol and limit price are replaced by the provider's own examples. */
  generic: boolean;
  /**
   * A stock example that a provider without stocks shows on its own symbol and price (a futures or
   * crypto broker would refuse AAPL), with the body's expressions rebuilt around that price.
   */
  ownSymbolWithoutStocks?: (price: number | string, quantity: number, orderClass: OrderClass) => Record<string, string>;
}

export const ORDER_EXAMPLES: readonly OrderExample[] = [
  {
    id: 'limit-order',
    title: 'Limit order',
    description:
      'Buys at the limit price or better. Without a duration it stays open until canceled (gtc), or at a broker ' +
      'without gtc gets its default (see Notes).',
    body: { symbol: 'AAPL', action: 'buy', quantity: 1, type: 'limit', limit_price: 150.25 },
    generic: true,
  },
  {
    id: 'bracket-order',
    title: 'Bracket order',
    description:
      'An entry with a take-profit and a stop-loss exit attached; when one exit fills, the broker cancels the other.',
    body: {
      symbol: 'AAPL',
      action: 'buy',
      quantity: 1,
      type: 'limit',
      limit_price: 150,
      take_profit_price: 165,
      stop_loss_price: 140,
    },
    generic: true,
  },
  {
    id: 'iron-condor',
    title: 'Iron condor (multileg)',
    description:
      'Four option legs traded as one combo: leg 1 is symbol and action, legs 2 to 4 are symbol[2], action[2] and so on ' +
      '(a "legs" array of {symbol, action, quantity} works too). quantity applies to every leg unless quantity[n] is given. ' +
      'limit_price is the net price of the combo: negative for a credit received, positive for a debit paid.',
    body: {
      symbol: 'SPY_271217P00540000',
      action: 'buy_to_open',
      'symbol[2]': 'SPY_271217P00550000',
      'action[2]': 'sell_to_open',
      'symbol[3]': 'SPY_271217C00600000',
      'action[3]': 'sell_to_open',
      'symbol[4]': 'SPY_271217C00610000',
      'action[4]': 'buy_to_open',
      quantity: 1,
      type: 'limit',
      limit_price: -1.25,
      group: 'combo',
    },
    needs: { class: ['option'] },
    generic: false,
  },
  {
    id: 'math-expressions',
    title: 'Math expressions',
    description:
      'Any number may be an expression: + - * / (or × ÷), ^ or ** for powers, parentheses, and the functions abs, ' +
      'round(x, decimals), floor, ceil, min, max, sqrt and pow. Here: 2 % below the price, rounded to cents, and the ' +
      'number of shares that 1000 buys (a broker without stocks shows its own symbol and price, and at least its smallest amount).',
    body: {
      symbol: 'AAPL',
      action: 'buy',
      quantity: 'floor(1000 / 150.25)',
      type: 'limit',
      limit_price: 'round(150.25 * 0.98, 2)',
    },
    generic: false,
    ownSymbolWithoutStocks: (price, quantity, orderClass) => ({
      // Coins are bought in fractions: what 1000 buys, to 5 decimals; else whole units, at least the smallest amount.
      quantity: orderClass === 'crypto' ? `round(1000 / ${price}, 5)` : `max(${quantity}, floor(1000 / ${price}))`,
      limit_price: `round(${price} * 0.98, 2)`,
    }),
  },
  {
    id: 'trendspider-variables',
    title: 'TrendSpider variables',
    description:
      'TrendSpider replaces %alert_symbol% and %last_price% in the alert message before sending it, so this order ' +
      'arrives as "symbol": "AAPL" and "limit_price": "150.25 * 0.995": a limit half a percent below the alert price.',
    body: { symbol: '%alert_symbol%', action: 'buy', quantity: 1, type: 'limit', limit_price: '%last_price% * 0.995' },
    generic: false,
  },
  {
    id: 'tradingview-variables',
    title: 'TradingView variables',
    description:
      'TradingView replaces {{ticker}}, {{close}} and the strategy placeholders before sending the alert, so one alert ' +
      'serves every symbol and both directions: {{strategy.order.action}} becomes buy or sell and ' +
      '{{strategy.order.contracts}} the size the strategy traded.',
    body: {
      symbol: '{{ticker}}',
      action: '{{strategy.order.action}}',
      quantity: '{{strategy.order.contracts}}',
      type: 'limit',
      limit_price: '{{close}}',
    },
    needs: { action: ['buy', 'sell'] },
    generic: false,
  },
];

export function findExample(id: string): OrderExample | undefined {
  return ORDER_EXAMPLES.find((example) => example.id === id);
}

/** The example's body for a provider, pretty-printed as the docs show it. */
export function exampleJson(example: OrderExample, provider?: Provider, now = Date.now()): string {
  return JSON.stringify(exampleBody(example, provider, now), null, 2);
}

/**
 * The example's body for a provider. Its own dates (the iron condor's expiry) are moved to be
 * current as of `now`, as a provider's examples are (withCurrentExamples): written once, they expire.
 */
export function exampleBody(
  example: OrderExample,
  provider?: Provider,
  now = Date.now(),
): Record<string, string | number> {
  const body = Object.fromEntries(
    Object.entries(example.body).map(([key, value]) => [key, currentExample(value, now)]),
  );
  const symbol = provider?.reference.symbol?.examples?.[0];
  if (example.generic && symbol !== undefined) {
    body.symbol = symbol;
    body.action = firstActionFor(provider?.reference.symbol?.examplesClass?.[0] ?? 'stock');
    if (typeof body.quantity === 'number') body.quantity = exampleQuantity(provider);
    if ('limit_price' in body) body.limit_price = examplePrice('limit_price', provider);
    // The exits at the provider's own levels, so they sit on the right sides of its limit price.
    for (const exit of ['take_profit_price', 'stop_loss_price'] as const) {
      const level = provider?.reference[exit]?.examples?.[0];
      if (exit in body && level !== undefined) body[exit] = level;
    }
  }
  const withoutStocks = example.ownSymbolWithoutStocks;
  if (withoutStocks && provider && symbol !== undefined && !providerClasses(provider.reference).includes('stock')) {
    body.symbol = symbol;
    const orderClass = provider.reference.symbol?.examplesClass?.[0] ?? 'stock';
    body.action = firstActionFor(orderClass);
    Object.assign(body, withoutStocks(examplePrice('limit_price', provider), exampleQuantity(provider), orderClass));
  }
  return body;
}

const ENUMERATED: readonly OrderParameter[] = ['class', 'type', 'action', 'duration', 'quantity_type', 'group'];

/** False when the provider's reference lacks a field or a value the example needs. */
export function isExampleAvailable(example: OrderExample, provider: Provider): boolean {
  const { reference } = provider;
  for (const [key, value] of Object.entries(example.body)) {
    const indexed = /^([a-z_]+)\[\d+\]$/.exec(key);
    const parameter = indexed?.[1] ?? key;
    if (!isParameter(parameter) || !reference[parameter]) return false;
    if (indexed && !reference.legs) return false;
    if (ENUMERATED.includes(parameter) && !/[{%]/.test(String(value)) && !allows(reference, parameter, String(value))) {
      return false;
    }
  }
  for (const [parameter, values] of Object.entries(example.needs ?? {})) {
    if (isParameter(parameter) && !values.every((value) => allows(reference, parameter, value))) return false;
  }
  return true;
}

export function exampleUnavailableMessage(provider: Provider): string {
  return `This type of order is not available for ${provider.title || 'Brokerage'}`;
}

function allows(reference: ProviderReference, parameter: OrderParameter, value: string): boolean {
  const values = reference[parameter]?.values;
  return !values || values.length === 0 || values.includes(value);
}

function isParameter(name: string): name is OrderParameter {
  return (ORDER_PARAMETERS as readonly string[]).includes(name);
}
