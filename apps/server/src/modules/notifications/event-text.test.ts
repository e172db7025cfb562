import { describe, expect, it } from 'vitest';
import { describeEvent } from './event-text.ts';

const title = (name: string) => name;

describe('credit events in words', () => {
  it('tells the low mark of a low balance', () => {
    const { details } = describeEvent('credits.low', { balance: 2, threshold: 10 }, title);
    expect(details).toEqual([
      ['Signals left', '2'],
      ['Low at', '10'],
    ]);
  });

  it('tells no low mark once none are left, nor one of 0 (a plan ended with nothing else granted)', () => {
    expect(describeEvent('credits.exhausted', { balance: 0, threshold: 20 }, title).details).toEqual([
      ['Signals left', '0'],
    ]);
    expect(describeEvent('credits.low', { balance: 0, threshold: 0 }, title).details).toEqual([['Signals left', '0']]);
  });

  it('says "1 signal left", not "1 signals" (a free account of 5 is low at 1)', () => {
    expect(describeEvent('credits.low', { balance: 1, threshold: 1 }, title).summary).toBe('You have 1 signal left');
    expect(describeEvent('credits.low', { balance: 3, threshold: 20 }, title).summary).toBe('You have 3 signals left');
  });
});

describe('who sent an order, in words', () => {
  const order = { order: { symbol: 'AAPL', action: 'buy', quantity: 1 }, providerName: 'alpaca', accountId: 'PA-1' };
  const intro = (hook: Record<string, unknown> | null) =>
    describeEvent('order.placed', { ...order, hook }, title).intro;
  const refused = (hook: Record<string, unknown>) =>
    describeEvent('signal.refused', { hook, reason: 'invalid', message: 'bad' }, title).summary;

  it('names the webhook, or the REST API and its caller (none for orders stored before callers were kept)', () => {
    expect(intro({ key: 'h1', name: 'TV alerts' })).toBe('Webhook "TV alerts" sent an order to alpaca account PA-1.');
    expect(intro(null)).toBe('A webhook sent an order to alpaca account PA-1.');
    expect(intro({ key: 'h2', name: 'REST API', api: true, via: 'Journal Pro' })).toBe(
      'Journal Pro sent an order through the REST API to alpaca account PA-1.',
    );
    expect(intro({ key: 'h2', name: 'REST API', api: true })).toBe(
      'The REST API sent an order to alpaca account PA-1.',
    );
  });

  it('says on which webhook, or on the REST API for which caller, a signal was refused', () => {
    expect(refused({ key: 'h1', name: 'TV alerts' })).toBe('Signal refused on webhook "TV alerts"');
    expect(refused({ key: 'h2', name: 'REST API', api: true, via: 'API token "bot"' })).toBe(
      'Signal refused on the REST API (API token "bot")',
    );
    expect(refused({ key: 'h2', name: 'REST API', api: true })).toBe('Signal refused on the REST API');
  });
});
