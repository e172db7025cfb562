// Provider descriptors for tests: shaped like real ones, trimmed to what the rules read.
import type { Provider, ProviderReference } from './types.ts';

function provider(name: string, title: string, reference: ProviderReference): Provider {
  return { name, title, status: 'active', authentication: { type: 'credentials', credentials: ['apiKey'] }, reference };
}

export const stockBroker = provider('alpaca', 'Alpaca', {
  symbol: { required: true, examples: ['AAPL', 'BTC/USD'], examplesClass: ['stock', 'crypto'] },
  class: { values: ['stock', 'crypto'] },
  action: { required: true, values: ['buy', 'sell', 'close', 'cancel'] },
  quantity: { required: true },
  quantity_type: { values: ['fixed', 'cash'] },
  type: { values: ['market', 'limit', 'stop', 'stop_limit'] },
  limit_price: { examples: [190.5] },
  stop_price: { examples: [185] },
  take_profit_price: {},
  stop_loss_price: {},
  duration: { values: ['day', 'gtc', 'opg', 'cls', 'ioc', 'fok'] },
  client_id: {},
});

/** A crypto exchange without brackets or multi-leg orders. */
export const cryptoExchange = provider('kraken', 'Kraken', {
  symbol: { required: true, examples: ['BTCUSD', 'ETH/USDT'], examplesClass: ['crypto', 'crypto'] },
  class: { values: ['crypto'] },
  action: { values: ['buy', 'sell'] },
  quantity: { required: true },
  type: { values: ['market', 'limit'] },
  limit_price: {},
  duration: { values: ['gtc', 'ioc'] },
  extra: { values: ['leverage', 'post_only'] },
});

/** Options broker with combos, and no market orders at all. */
export const optionsBroker = provider('tradier', 'Tradier', {
  symbol: { examples: ['SPY', 'SPY_271217C00600000'], examplesClass: ['stock', 'option'] },
  class: { values: ['stock', 'option'] },
  action: {},
  quantity: {},
  type: { values: ['limit', 'stop_limit'] },
  limit_price: {},
  stop_price: {},
  duration: { values: ['day', 'gtc'] },
  group: { values: ['combo', 'oco'] },
  legs: {},
});

/** June 15th 2025, noon UTC: the clock of every test that resolves a futures year. */
export const NOW = Date.UTC(2025, 5, 15, 12);
export const now = (): number => NOW;
