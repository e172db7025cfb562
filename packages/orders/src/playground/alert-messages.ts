// Ready-to-paste alert messages for the charting platforms that post to a webhook (issue #21):
// TradingView (a strategy alert and a plain one), TrendSpider and Zapier, drawn from a provider's
// reference, e.g. for a stock broker:
//   {"symbol": "{{ticker}}", "action": "{{strategy.order.action}}", "quantity": "{{strategy.order.contracts}}"}
// The platform fills the placeholders before it sends; fillPlaceholders does the same with sample
// values, for a test signal from the app.
import type { Provider } from '../types.ts';
import {
  classExampleSymbol,
  examplePrice,
  exampleQuantity,
  firstActionFor,
  providerClasses,
  providerTypes,
} from './sample.ts';

export type AlertPlatform = 'tradingview' | 'trendspider' | 'zapier';

export interface AlertMessage {
  id: 'tradingview-strategy' | 'tradingview-plain' | 'trendspider' | 'zapier';
  platform: AlertPlatform;
  title: string;
  description: string;
  body: Record<string, string | number>;
}

export interface Placeholder {
  text: string;
  meaning: string;
  /** What fillPlaceholders puts in for a test signal. */
  sample: (provider: Provider, now: Date) => string;
}

const symbolOf = (provider: Provider) =>
  classExampleSymbol(providerClasses(provider.reference)[0] ?? 'stock', provider);
const priceOf = (provider: Provider) => String(examplePrice('limit_price', provider));

/** Placeholders the messages use, per platform (TradingView's and TrendSpider's own names). */
export const PLACEHOLDERS: Readonly<Record<Exclude<AlertPlatform, 'zapier'>, readonly Placeholder[]>> = {
  tradingview: [
    { text: '{{ticker}}', meaning: "the chart's symbol, e.g. AAPL", sample: symbolOf },
    { text: '{{close}}', meaning: "the bar's close: the last price when the alert fires", sample: priceOf },
    {
      text: '{{strategy.order.action}}',
      meaning: 'buy or sell, as the strategy traded',
      sample: (provider) => firstActionFor(providerClasses(provider.reference)[0] ?? 'stock'),
    },
    {
      text: '{{strategy.order.contracts}}',
      meaning: 'the size of the strategy order',
      sample: (provider) => String(exampleQuantity(provider)),
    },
    { text: '{{strategy.order.id}}', meaning: 'the order id in the script, e.g. "Long"', sample: () => 'Long' },
    {
      text: '{{timenow}}',
      meaning: 'when the alert fired (UTC, to the second)',
      sample: (_provider, now) => `${now.toISOString().slice(0, 19)}Z`,
    },
  ],
  trendspider: [
    { text: '%alert_symbol%', meaning: "the alert's symbol, e.g. AAPL", sample: symbolOf },
    { text: '%last_price%', meaning: 'the last price when the alert fires', sample: priceOf },
  ],
};

const takesLimit = (provider: Provider) => providerTypes(provider.reference).includes('limit');
const takesMarket = (provider: Provider) => providerTypes(provider.reference).includes('market');

/** A market order, or a limit at `price` where the broker takes no market orders. */
function marketOr(provider: Provider, price: string): Record<string, string> {
  return takesMarket(provider) ? {} : atPrice(provider, price);
}

/** A limit at the alert's price where the broker takes limit orders, else a market order. */
function atPrice(provider: Provider, price: string): Record<string, string> {
  return takesLimit(provider) ? { type: 'limit', limit_price: price } : {};
}

/** The strategy alert's client_id, and that id as TradingView fills it in. */
const STRATEGY_CLIENT_ID = '{{strategy.order.id}}-{{timenow}}';
const FILLED_STRATEGY_CLIENT_ID = 'Long-2026-03-02T14:30:05Z';

/**
 * The strategy alert's client_id, unless the broker sends client_id on in a form that cannot hold
 * it (MetaTrader's order comment): there, every strategy alert would be refused.
 */
function strategyClientId(provider: Provider): Record<string, string> {
  const pattern = provider.reference.client_id?.pattern;
  return pattern === undefined || new RegExp(pattern).test(FILLED_STRATEGY_CLIENT_ID)
    ? { client_id: STRATEGY_CLIENT_ID }
    : {};
}

export function alertMessages(provider: Provider): AlertMessage[] {
  const action = firstActionFor(providerClasses(provider.reference)[0] ?? 'stock');
  const quantity = exampleQuantity(provider);
  // The order id and the firing time tell two strategy orders apart; a resend of one alert
  // carries the same client_id, so it is still one order. Every provider takes client_id: it is
  // the router's own idempotency key; a broker that also sends it on takes only what fits there.
  return [
    {
      id: 'tradingview-strategy',
      platform: 'tradingview',
      title: 'Strategy alert',
      description:
        'For an alert on a Pine Script strategy: every order the strategy makes is sent with its direction and size.',
      body: {
        symbol: '{{ticker}}',
        action: '{{strategy.order.action}}',
        quantity: '{{strategy.order.contracts}}',
        ...marketOr(provider, '{{close}}'),
        ...strategyClientId(provider),
      },
    },
    {
      id: 'tradingview-plain',
      platform: 'tradingview',
      title: 'Plain alert',
      description: `For any other alert (a price crossing, an indicator): ${action} ${quantity} of the chart's symbol${
        takesLimit(provider) ? ' at the alert price' : ''
      }. Make one alert per direction.`,
      body: { symbol: '{{ticker}}', action, quantity, ...atPrice(provider, '{{close}}') },
    },
    {
      id: 'trendspider',
      platform: 'trendspider',
      title: 'TrendSpider alert',
      description: 'TrendSpider replaces %alert_symbol% and %last_price% before it sends the alert.',
      body: { symbol: '%alert_symbol%', action, quantity, ...atPrice(provider, '%last_price%') },
    },
    {
      id: 'zapier',
      platform: 'zapier',
      title: 'Zapier request data',
      description: "Replace the values by the trigger's fields with Zapier's insert-data menu.",
      body: { symbol: symbolOf(provider), action, quantity, ...marketOr(provider, priceOf(provider)) },
    },
  ];
}

export const alertJson = (message: AlertMessage): string => JSON.stringify(message.body, null, 2);

/** The message as the platform would send it, with sample values for the placeholders. */
export function fillPlaceholders(text: string, provider: Provider, now = new Date()): string {
  let filled = text;
  for (const placeholder of [...PLACEHOLDERS.tradingview, ...PLACEHOLDERS.trendspider]) {
    filled = filled.split(placeholder.text).join(placeholder.sample(provider, now));
  }
  return filled;
}
