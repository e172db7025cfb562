// The documentation's six examples (SPEC §2) as MetaTrader's docs screen shows them: the iron
// condor is not offered (no options, no multi-leg orders), and each other example whose values
// are literal becomes the trade MetaApi takes (the bracket at MetaTrader's own exit levels).
import {
  alertJson,
  alertMessages,
  exampleBody,
  exampleUnavailableMessage,
  fillPlaceholders,
  isExampleAvailable,
  normalizeOrderOrThrow,
  ORDER_EXAMPLES,
} from '@router/orders';
import { describe, expect, it } from 'vitest';
import { toProvider } from '../../core/registry.ts';
import { metatraderDescriptor } from './descriptor.ts';
import { toTrade } from './mapper.ts';
import { wantedName } from './terminal.ts';

const provider = toProvider(metatraderDescriptor);

describe('documentation examples for MetaTrader', () => {
  it('offers all but the iron condor, which says it is not available', () => {
    expect(ORDER_EXAMPLES.filter((example) => !isExampleAvailable(example, provider)).map((e) => e.id)).toEqual([
      'iron-condor',
    ]);
    expect(exampleUnavailableMessage(provider)).toBe('This type of order is not available for MetaTrader');
  });

  it.each([
    ['limit-order', { actionType: 'ORDER_TYPE_BUY_LIMIT', symbol: 'EURUSD', volume: 1, openPrice: 1.075 }],
    [
      'bracket-order',
      { actionType: 'ORDER_TYPE_BUY_LIMIT', symbol: 'EURUSD', openPrice: 1.075, takeProfit: 1.085, stopLoss: 1.07 },
    ],
    ['math-expressions', { actionType: 'ORDER_TYPE_BUY_LIMIT', symbol: 'AAPL', volume: 6, openPrice: 147.25 }],
  ])('%s becomes a pending order, good till canceled', (id, fields) => {
    const example = ORDER_EXAMPLES.find((item) => item.id === id);
    if (!example) throw new Error(`no example ${id}`);
    const order = normalizeOrderOrThrow(exampleBody(example, provider), { provider });
    const trade = toTrade(order, 'sigExample')(wantedName(order), 'mt5');
    expect(trade).toMatchObject({ ...fields, clientId: 'sigExample', expiration: { type: 'ORDER_TIME_GTC' } });
  });

  it.each(alertMessages(provider).map((message) => [message.id, message] as const))(
    'the %s alert message, filled in as the platform sends it, becomes a trade',
    (_id, message) => {
      const text = fillPlaceholders(alertJson(message), provider, new Date('2026-03-02T14:30:05Z'));
      const order = normalizeOrderOrThrow(text, { provider });
      expect(toTrade(order, 'sigAlert')(wantedName(order), 'mt5')).toMatchObject({
        actionType: expect.stringMatching(/^ORDER_TYPE_BUY/),
        symbol: 'AAPL',
        clientId: 'sigAlert',
      });
    },
  );
});
