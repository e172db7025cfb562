// The alert messages the web app offers (Brokers & Webhooks, "Connect TradingView"): for every
// provider this server connects to, each message, filled in as the platform would, is an order the
// provider accepts (its order language and its broker's own checks, Broker.checkOrder); and a
// filled TradingView message placed through a real test hook is a draft.
import { type AlertMessage, alertJson, alertMessages, fillPlaceholders, normalizeOrder } from '@router/orders';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { postSignal, setupTrader } from '../../../test/signal-fixtures.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const strategyOf = (messages: AlertMessage[]) => messages.find((m) => m.id === 'tradingview-strategy') as AlertMessage;

describe('alert messages of every provider', () => {
  it('normalize against the provider once filled in', async () => {
    // Unavailable providers cannot be connected, so they have no webhooks to message.
    const providers = t.services.brokers.providers().filter((p) => p.status === 'active' || p.status === 'beta');
    expect(providers.length).toBeGreaterThan(5);
    const brokers = new Map(
      await Promise.all(providers.map(async (p) => [p.name, await t.services.brokers.load(p.name)] as const)),
    );
    const refusals = providers.flatMap((provider) =>
      alertMessages(provider).flatMap((message) => {
        const result = normalizeOrder(fillPlaceholders(alertJson(message), provider), { provider });
        if (!result.ok) return [`${provider.name} ${message.id}: ${result.error.message}`];
        // A test hook runs the broker's own checks too (Broker.checkOrder): they take it as well.
        const check = brokers.get(provider.name)?.checkOrder;
        try {
          check?.({ accountId: 'A1', order: result.order, clientOrderId: 'sig_alert' });
          return [];
        } catch (error) {
          return [`${provider.name} ${message.id}: ${(error as Error).message}`];
        }
      }),
    );
    expect(refusals).toEqual([]);
  });

  it('a filled strategy alert sent to a paper test hook answers a draft of that order', async () => {
    const trader = await setupTrader(t, 'alerts@example.com', { isTest: true });
    const paper = t.services.brokers.providers().find((p) => p.name === 'paper');
    if (!paper) throw new Error('no paper provider');
    const body = fillPlaceholders(alertJson(strategyOf(alertMessages(paper))), paper);
    const res = await postSignal(t, trader.shortKey, body, 'text/plain');
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ status: 'draft' });
  });

  it('an alert whose symbol is missing or filled with nothing answers SPEC §8 sample 400 body, as the docs show it', async () => {
    const trader = await setupTrader(t, 'alerts-nosymbol@example.com', { isTest: true });
    for (const body of ['{"action":"buy","quantity":1}', '{"symbol":"","action":"buy","quantity":1}']) {
      const res = await postSignal(t, trader.shortKey, body, 'text/plain');
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ status: 'ValidationError', message: 'No symbol found' });
    }
  });
});
