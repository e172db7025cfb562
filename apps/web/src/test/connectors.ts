// Fixtures of the Brokers & Webhooks and callback tests: providers, connectors, hooks.
import { type FakeHandler, fakeUser } from './fake-server.ts';

export const CUSTOMER = fakeUser(4);

export const TEST_PROVIDERS = [
  {
    name: 'paper',
    title: 'Paper Trading',
    status: 'active',
    authentication: { type: 'credentials', credentials: [], help: 'A simulated cash account.' },
    reference: {},
  },
  {
    name: 'alpaca',
    title: 'Alpaca',
    status: 'active',
    scale: 1,
    authentication: {
      type: 'credentials',
      credentials: ['apiKeyId', 'apiSecret', 'password', 'accountNumber'],
      help: 'Keys from the Alpaca dashboard.',
    },
    reference: {},
  },
  {
    name: 'schwab',
    title: 'Schwab',
    status: 'beta',
    scale: 1.8,
    authentication: { type: 'open', credentials: ['code'], referrerBase: 'https://sws-gateway-nr.schwab.com' },
    reference: {},
  },
  {
    name: 'etrade',
    title: 'E*TRADE',
    status: 'active',
    authentication: { type: 'open', credentials: ['oauth_verifier'], referrerBase: 'https://us.etrade.com' },
    reference: {},
  },
  {
    name: 'bitmex',
    title: 'BitMEX',
    status: 'active',
    scale: 0.7,
    notice: 'BitMEX closed its exchange; live orders are refused there.',
    authentication: { type: 'credentials', credentials: ['apiKey', 'secret'] },
    reference: {},
  },
  {
    name: 'lightspeed',
    title: 'Lightspeed',
    status: 'unavailable',
    scale: 1.3,
    authentication: {
      type: 'credentials',
      credentials: [],
      help: 'Lightspeed publishes no order API. Connect a broker with an order API instead.',
    },
    reference: {},
  },
  { name: 'gone', title: 'Gone Broker', status: 'disabled', authentication: { type: 'credentials', credentials: [] } },
];

export const providersHandler: FakeHandler = () => ({ data: { providers: JSON.stringify(TEST_PROVIDERS) } });

export const DAY = 24 * 60 * 60 * 1000;

export interface ConnectorFixture {
  key: string;
  providerName: string;
  accounts: string;
  branch: null;
  status: number;
  isActive: boolean;
  isDemo: boolean;
  expiresAt: number | null;
}

export function connector(overrides: Partial<ConnectorFixture> & { key: string }): ConnectorFixture {
  return {
    providerName: 'paper',
    accounts: JSON.stringify([
      { id: 'PA-1', name: 'Paper account', dataTitle: null, dataType: 'cash', dataCurrency: 'USD', demo: true },
    ]),
    branch: null,
    status: 0,
    isActive: true,
    isDemo: true,
    expiresAt: null,
    ...overrides,
  };
}

export function hook(overrides: Partial<Record<string, unknown>> & { key: string; accountId: string }) {
  return {
    shortKey: `${overrides.key}ShortKey0000000000000`.slice(0, 22),
    url: `http://localhost/hook/${overrides.key}`,
    name: 'Webhook',
    isActive: true,
    isTest: false,
    deactivatedReason: null as string | null,
    calledAt: null,
    health: { calls: 0, errorRate: null },
    ...overrides,
  };
}
