import { describe, expect, it } from 'vitest';
import { normalizeOrder } from '../order/normalize.ts';
import { cryptoExchange, now, optionsBroker, stockBroker } from '../test-fixtures.ts';
import {
  exampleBody,
  exampleJson,
  exampleUnavailableMessage,
  findExample,
  isExampleAvailable,
  ORDER_EXAMPLES,
} from './examples.ts';

const availability = (provider: typeof stockBroker) =>
  Object.fromEntries(ORDER_EXAMPLES.map((example) => [example.id, isExampleAvailable(example, provider)]));

describe('documentation examples', () => {
  it('has the six examples of SPEC §2 with unique anchors', () => {
    expect(ORDER_EXAMPLES.map((example) => example.id)).toEqual([
      'limit-order',
      'bracket-order',
      'iron-condor',
      'math-expressions',
      'trendspider-variables',
      'tradingview-variables',
    ]);
    expect(findExample('iron-condor')?.title).toBe('Iron condor (multileg)');
  });

  it('checks each example against the provider reference', () => {
    expect(availability(stockBroker)).toEqual({
      'limit-order': true,
      'bracket-order': true,
      'iron-condor': false,
      'math-expressions': true,
      'trendspider-variables': true,
      'tradingview-variables': true,
    });
    expect(availability(cryptoExchange)).toEqual({
      'limit-order': true,
      'bracket-order': false,
      'iron-condor': false,
      'math-expressions': true,
      'trendspider-variables': true,
      'tradingview-variables': true,
    });
    expect(availability(optionsBroker)).toMatchObject({ 'iron-condor': true, 'bracket-order': false });
    expect(exampleUnavailableMessage(cryptoExchange)).toBe('This type of order is not available for Kraken');
  });

  it('uses the provider’s symbol in generic examples', () => {
    const limit = findExample('limit-order');
    if (!limit) throw new Error('missing example');
    expect(exampleBody(limit, cryptoExchange)).toMatchObject({ symbol: 'BTCUSD', limit_price: 150 });
    expect(JSON.parse(exampleJson(limit, stockBroker))).toMatchObject({ symbol: 'AAPL', limit_price: 190.5 });
  });

  it('shows the math example on the provider’s own symbol and price where it trades no stocks', () => {
    const math = findExample('math-expressions');
    if (!math) throw new Error('missing example');
    expect(exampleBody(math, stockBroker)).toMatchObject({ symbol: 'AAPL', quantity: 'floor(1000 / 150.25)' });
    const futures = {
      ...stockBroker,
      reference: {
        ...stockBroker.reference,
        symbol: { examples: ['ESZ2027'], examplesClass: ['future' as const] },
        class: { values: ['future'] },
        quantity: { minimum: 1 },
        limit_price: { examples: [6050.25] },
      },
    };
    const body = exampleBody(math, futures);
    expect(body).toMatchObject({
      symbol: 'ESZ2027',
      action: 'buy',
      quantity: 'max(1, floor(1000 / 6050.25))',
      limit_price: 'round(6050.25 * 0.98, 2)',
    });
    const normalized = normalizeOrder(JSON.stringify(body), { provider: futures, now });
    expect(normalized.ok && normalized.order).toMatchObject({ symbol: 'ESZ2027', quantity: 1, limit_price: 5929.25 });
    expect(exampleBody(math, cryptoExchange)).toMatchObject({ quantity: 'round(1000 / 150, 5)' });
  });

  it('uses the provider’s exit levels in the bracket example, where it gives them', () => {
    const bracket = findExample('bracket-order');
    if (!bracket) throw new Error('missing example');
    const reference = {
      ...stockBroker.reference,
      take_profit_price: { examples: [200] },
      stop_loss_price: { examples: [180] },
    };
    expect(exampleBody(bracket, { ...stockBroker, reference })).toMatchObject({
      limit_price: 190.5,
      take_profit_price: 200,
      stop_loss_price: 180,
    });
    expect(exampleBody(bracket, stockBroker)).toMatchObject({ take_profit_price: 165, stop_loss_price: 140 });
  });

  it('normalizes every example once its placeholders are replaced', () => {
    const substitutions: Record<string, string> = {
      '{{ticker}}': 'AAPL',
      '{{strategy.order.action}}': 'sell',
      '{{strategy.order.contracts}}': '3',
      '{{close}}': '150.25',
      '%alert_symbol%': 'AAPL',
      '%last_price%': '150.25',
    };
    for (const example of ORDER_EXAMPLES) {
      let json = exampleJson(example, undefined, now());
      for (const [placeholder, value] of Object.entries(substitutions)) json = json.replaceAll(placeholder, value);
      const result = normalizeOrder(json, { now });
      expect(result, example.id).toMatchObject({ ok: true });
    }
  });

  it('moves a dated example to the day it is shown: the iron condor of 2027-12-17 still opens in 2028', () => {
    const condor = findExample('iron-condor');
    if (!condor) throw new Error('missing example');
    const shownAt = Date.UTC(2028, 2, 10, 15);
    const body = exampleBody(condor, undefined, shownAt);
    // The third Friday of the month three months on, every leg alike (symbols/dated-examples.ts).
    expect([body.symbol, body['symbol[2]'], body['symbol[3]'], body['symbol[4]']]).toEqual([
      'SPY_280616P00540000',
      'SPY_280616P00550000',
      'SPY_280616C00600000',
      'SPY_280616C00610000',
    ]);
    expect(normalizeOrder(body, { now: () => shownAt })).toMatchObject({ ok: true });
  });

  it('refuses the variable examples as sent without substitution, naming the placeholder', () => {
    const tradingView = findExample('tradingview-variables');
    if (!tradingView) throw new Error('missing example');
    expect(normalizeOrder(tradingView.body, { now })).toMatchObject({
      ok: false,
      error: {
        field: 'action',
        message: 'action: placeholder {{strategy.order.action}} was not replaced by the sender',
      },
    });
    const trendSpider = findExample('trendspider-variables');
    if (!trendSpider) throw new Error('missing example');
    expect(normalizeOrder(trendSpider.body, { now })).toMatchObject({
      ok: false,
      error: { message: 'limit_price: placeholder %last_price% was not replaced by the sender at position 0' },
    });
  });
});
