// Providers and connectors of the documentation screen's tests, shaped as the server sends them.
import type { Provider } from '@router/orders';
import { fixture } from '../../test/fake-server.ts';

const credentials: Provider['authentication'] = { type: 'credentials', credentials: ['apiKey'] };

export const ALPACA: Provider = {
  name: 'alpaca',
  title: 'Alpaca',
  status: 'active',
  authentication: credentials,
  reference: {
    symbol: { required: true, examples: ['AAPL', 'BTC/USD'], examplesClass: ['stock', 'crypto'] },
    class: { values: ['stock', 'crypto'] },
    action: { required: true, values: ['buy', 'sell', 'close', 'cancel'] },
    quantity: { required: true, examples: [1, 10] },
    type: { values: ['market', 'limit', 'stop', 'stop_limit'] },
    limit_price: { examples: [190.5] },
    stop_price: { examples: [185] },
    take_profit_price: {},
    stop_loss_price: {},
    duration: { values: ['day', 'gtc'] },
  },
};

export const KRAKEN: Provider = {
  name: 'kraken',
  title: 'Kraken',
  status: 'active',
  authentication: credentials,
  reference: {
    symbol: { examples: ['BTCUSD'], examplesClass: ['crypto'] },
    action: { values: ['buy', 'sell'] },
    quantity: {},
    type: { values: ['market', 'limit'] },
    limit_price: {},
  },
};

export const PAPER: Provider = {
  name: 'paper',
  title: 'Paper Trading',
  status: 'active',
  authentication: { type: 'credentials', credentials: [] },
  reference: {
    symbol: { required: true, examples: ['AAPL'], examplesClass: ['stock'] },
    action: { required: true, values: ['buy', 'sell', 'close', 'cancel'] },
    quantity: { required: true },
    type: { values: ['market', 'limit', 'stop', 'stop_limit'] },
    limit_price: { examples: [185.5] },
    stop_price: { examples: [195] },
    take_profit_price: { examples: [200] },
    stop_loss_price: { examples: [180] },
    duration: { values: ['day', 'gtc'] },
  },
};

export const TRADIER: Provider = {
  name: 'tradier',
  title: 'Tradier',
  status: 'active',
  authentication: credentials,
  reference: {
    symbol: { examples: ['SPY', 'SPY_271217C00600000'], examplesClass: ['stock', 'option'] },
    class: { values: ['stock', 'option'] },
    action: {},
    quantity: {},
    type: { values: ['market', 'limit'] },
    limit_price: {},
    group: { values: ['combo'] },
    legs: { comments: '2 to 4 option legs.' },
  },
};

export const SCHWAB: Provider = { ...KRAKEN, name: 'schwab', title: 'Schwab', status: 'beta' };

export const LIGHTSPEED: Provider = {
  name: 'lightspeed',
  title: 'Lightspeed',
  status: 'unavailable',
  authentication: { type: 'credentials', credentials: [], help: 'Lightspeed publishes no order API.' },
  reference: {},
};

/** Server order: active by title, then beta, then unavailable. */
export const PROVIDERS = [ALPACA, KRAKEN, PAPER, TRADIER, SCHWAB, LIGHTSPEED];

export interface ConnectorFixture {
  key: string;
  providerName: string;
  isActive?: boolean;
  accounts: Array<{ id: string; name?: string; dataTitle?: string; dataType?: string; dataCurrency?: string }>;
}

/** Handlers for the screen: the providers above and the given connectors. */
export function docsServer(connectors: ConnectorFixture[] = []) {
  return {
    Providers: fixture(() => ({ data: { providers: JSON.stringify(PROVIDERS) } })),
    PlaygroundConnectors: fixture(() => ({
      data: {
        connectors: connectors.map((connector) => ({
          key: connector.key,
          providerName: connector.providerName,
          accounts: JSON.stringify(connector.accounts),
          isActive: connector.isActive ?? true,
          isDemo: false,
        })),
      },
    })),
  };
}
