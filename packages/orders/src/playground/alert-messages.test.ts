import { describe, expect, it } from 'vitest';
import { normalizeOrder } from '../order/normalize.ts';
import { cryptoExchange, optionsBroker, stockBroker } from '../test-fixtures.ts';
import { alertJson, alertMessages, fillPlaceholders } from './alert-messages.ts';

const NOW = new Date('2026-03-02T14:30:05.123Z');
const byId = (provider: Parameters<typeof alertMessages>[0]) =>
  Object.fromEntries(alertMessages(provider).map((message) => [message.id, message]));

describe('alertMessages', () => {
  it("uses TradingView's strategy placeholders, with a client_id telling strategy orders apart", () => {
    expect(byId(stockBroker)['tradingview-strategy']?.body).toEqual({
      symbol: '{{ticker}}',
      action: '{{strategy.order.action}}',
      quantity: '{{strategy.order.contracts}}',
      client_id: '{{strategy.order.id}}-{{timenow}}',
    });
  });

  it('makes the plain alert a limit at {{close}} where limits exist, else a market order', () => {
    expect(byId(stockBroker)['tradingview-plain']?.body).toEqual({
      symbol: '{{ticker}}',
      action: 'buy',
      quantity: 1,
      type: 'limit',
      limit_price: '{{close}}',
    });
    const marketOnly = { ...stockBroker, reference: { ...stockBroker.reference, type: { values: ['market'] } } };
    expect(byId(marketOnly)['tradingview-plain']?.body).toEqual({ symbol: '{{ticker}}', action: 'buy', quantity: 1 });
  });

  it("gives TrendSpider its own placeholders and Zapier the broker's example symbol", () => {
    expect(byId(cryptoExchange).trendspider?.body).toMatchObject({
      symbol: '%alert_symbol%',
      limit_price: '%last_price%',
    });
    expect(byId(cryptoExchange).zapier?.body).toEqual({ symbol: 'BTCUSD', action: 'buy', quantity: 1 });
  });
});

describe('fillPlaceholders', () => {
  it("puts in the broker's example symbol and price, a buy, size 1 and the time", () => {
    const strategy = byId(stockBroker)['tradingview-strategy'];
    if (!strategy) throw new Error('no strategy message');
    expect(JSON.parse(fillPlaceholders(alertJson(strategy), stockBroker, NOW))).toEqual({
      symbol: 'AAPL',
      action: 'buy',
      quantity: '1',
      client_id: 'Long-2026-03-02T14:30:05Z',
    });
    expect(fillPlaceholders('%alert_symbol% at %last_price%', cryptoExchange, NOW)).toBe('BTCUSD at 150');
  });

  it('fills every message into an order the broker accepts', () => {
    for (const provider of [stockBroker, cryptoExchange, optionsBroker]) {
      for (const message of alertMessages(provider)) {
        const result = normalizeOrder(fillPlaceholders(alertJson(message), provider, NOW), { provider });
        expect(result.ok ? 'ok' : `${provider.name} ${message.id}: ${result.error.message}`).toBe('ok');
      }
    }
  });
});
