// Broker.checkOrder (a test hook's "check without placing") for brokers whose placeOrder refuses an
// order before any call: placing it on a session that reaches nothing gives the refusal, and the
// check throws the same error; an order placing takes passes the check. (The adapters with a
// protocol fake at hand show the same in their own tests.)
import { normalizeOrderOrThrow } from '@router/orders';
import { describe, expect, it } from 'vitest';
import { brokerModules } from '../discover.ts';
import type { BrokerSession } from './broker.ts';
import { BrokerError } from './errors.ts';
import { WRITTEN_AT } from './test-clock.ts';

const CASES = [
  {
    broker: 'etrade',
    refused: { symbol: 'AAPL', action: 'buy', quantity: 1.5 },
    message: 'E*TRADE: quantity must be a whole number of shares or contracts',
    valid: { symbol: 'AAPL', action: 'buy', quantity: 2 },
  },
  {
    broker: 'webull',
    refused: { symbol: 'ESZ26', action: 'buy', quantity: 1.5 },
    message: 'Webull: futures trade whole contracts',
    valid: { symbol: 'ESZ26', action: 'buy', quantity: 1 },
  },
  {
    broker: 'tastytrade',
    refused: { symbol: 'AAPL', action: 'buy', quantity: 1, duration: 'gtd' },
    message: 'tastytrade: duration gtd needs extra.gtc_date, the last day as YYYY-MM-DD',
    valid: { symbol: 'AAPL', action: 'buy', quantity: 1, duration: 'gtd', extra: { gtc_date: '2099-01-02' } },
  },
  {
    broker: 'zerodha',
    refused: {
      symbol: 'NSE:INFY',
      action: 'buy',
      quantity: 1,
      type: 'limit',
      limit_price: 10,
      extra: { market_protection: 5 },
    },
    message: 'Zerodha: market_protection is for market and stop orders',
    valid: { symbol: 'NSE:INFY', action: 'buy', quantity: 1, extra: { market_protection: 5 } },
  },
  {
    broker: 'rithmic',
    refused: { symbol: 'ES2!', action: 'buy', quantity: 1 },
    message: 'Rithmic: only the front month (ES1!) is resolved; name the month of ES2!',
    valid: { symbol: 'ES1!', action: 'buy', quantity: 1 },
  },
];

/** A session on an account, at an address that answers nothing: a call would fail otherwise. */
const session: BrokerSession = {
  secrets: { accessToken: 'none', token: 'none', apiKey: 'none' },
  accounts: [{ id: 'A1', name: 'A1', demo: true }],
};
const ctx = { baseUrl: 'http://127.0.0.1:9', clientId: 'none', clientSecret: 'none' };

const loaded = new Map(
  await Promise.all(brokerModules.map(async (module) => [module.descriptor.name, await module.load()] as const)),
);

describe.each(CASES)('$broker', ({ broker: name, refused, message, valid }) => {
  const broker = loaded.get(name);
  if (!broker) throw new Error(`no broker ${name}`);
  const input = (signal: Record<string, unknown>) => ({
    accountId: 'A1',
    order: normalizeOrderOrThrow(signal, { provider: broker.descriptor, now: WRITTEN_AT }),
    clientOrderId: 'sig-check-1',
  });

  it('refuses what placing refuses before any call, with its error', async () => {
    const live = await Promise.resolve()
      .then(() => broker.placeOrder(ctx, session, input(refused)))
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(live).toBeInstanceOf(BrokerError);
    expect(live).toMatchObject({ kind: 'InvalidOrder', message });
    expect(() => broker.checkOrder?.(input(refused))).toThrow(live as BrokerError);
  });

  it('passes an order placing takes', () => {
    expect(broker.checkOrder).toBeTypeOf('function');
    expect(() => broker.checkOrder?.(input(valid))).not.toThrow();
  });
});
