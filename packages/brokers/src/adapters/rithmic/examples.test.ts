// The documentation's six examples (SPEC §2) as Rithmic's docs screen shows them: no options, so
// no iron condor ('This type of order is not available for Rithmic'); the limit and bracket
// examples become the RequestNewOrder and RequestBracketOrder a futures account takes (ESH7 on
// CME, the bracket's exits 80 ticks of 0.25 from the limit); a stock symbol is refused.
import {
  exampleBody,
  exampleUnavailableMessage,
  isExampleAvailable,
  normalizeOrderOrThrow,
  ORDER_EXAMPLES,
} from '@router/orders';
import { describe, expect, it } from 'vitest';
import { toProvider } from '../../core/registry.ts';
import { contractOf } from './contracts.ts';
import { rithmicDescriptor } from './descriptor.ts';
import { orderRequest } from './mapper.ts';

const provider = toProvider(rithmicDescriptor);
const NOW = Date.parse('2026-11-25T12:00:00Z');
const TO = { fcm_id: 'DemoFCM', ib_id: 'DemoIB', account_id: 'A1', trade_route: 'simulator', user_type: 3 };
const request = (id: string) => {
  const example = ORDER_EXAMPLES.find((item) => item.id === id);
  if (!example) throw new Error(`no example ${id}`);
  const order = normalizeOrderOrThrow(exampleBody(example, provider), { provider, now: () => NOW });
  const contract = contractOf(order, NOW);
  return orderRequest(order, { ...contract, symbol: contract.symbol ?? '' }, TO, 'sigExample');
};

describe('documentation examples for Rithmic', () => {
  it('offers all but the iron condor, which says it is not available', () => {
    expect(ORDER_EXAMPLES.filter((example) => !isExampleAvailable(example, provider)).map((e) => e.id)).toEqual([
      'iron-condor',
    ]);
    expect(exampleUnavailableMessage(provider)).toBe('This type of order is not available for Rithmic');
  });

  it('turns the limit order example into a gtc limit buy of ESH7 on CME, AUTO', () => {
    expect(request('limit-order')).toMatchObject({
      template_id: 312,
      symbol: 'ESH7',
      exchange: 'CME',
      price_type: 1,
      price: 6050.25,
      duration: 2,
      transaction_type: 1,
      manual_or_auto: 2,
      user_tag: 'sigExample',
    });
  });

  it('turns the bracket example into a bracket order with its exits in ticks', () => {
    expect(request('bracket-order')).toMatchObject({
      template_id: 330,
      price: 6050.25,
      bracket_type: 3,
      target_ticks: 80,
      stop_ticks: 80,
      target_quantity: 1,
      stop_quantity: 1,
    });
  });

  it('refuses a stock with the class Rithmic trades', () => {
    expect(() =>
      normalizeOrderOrThrow({ symbol: 'AAPL', action: 'buy', quantity: 1, class: 'stock' }, { provider }),
    ).toThrow('Rithmic: class: stock is not supported; use future');
  });
});
