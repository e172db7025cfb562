// A yes-or-no extra as Zapier's fields and scripts send it, as text: "True" (Python's str(True))
// was read as not true, so an all-or-none order could fill in part and an extended-hours order
// waited for the open, without a word; "yes" the same.
import { normalizeOrderOrThrow, type Order } from '@router/orders';
import { describe, expect, it } from 'vitest';
import { toAlpacaOrder } from '../adapters/alpaca/mapper.ts';
import { toEtradeOrder } from '../adapters/etrade/mapper.ts';
import { toSubmission } from '../adapters/questrade/mapper.ts';
import { toTrading212Request } from '../adapters/trading212/mapper.ts';
import { BrokerError } from './errors.ts';
import { extraFlag } from './extra-flag.ts';

const invalid = (message: string) => new BrokerError('InvalidOrder', 'Broker', message);
const order = (extra: Record<string, unknown>, fields: Record<string, unknown> = {}): Order =>
  normalizeOrderOrThrow({
    symbol: 'AAPL',
    action: 'buy',
    quantity: 1,
    type: 'limit',
    limit_price: 150,
    ...fields,
    extra,
  });

describe('extraFlag', () => {
  it.each([
    [true, true],
    [false, false],
    ['true', true],
    ['True', true],
    [' TRUE ', true],
    ['False', false],
  ])('reads %j as %s', (value, flag) => {
    expect(extraFlag(order({ flag: value }), 'flag', invalid)).toBe(flag);
  });

  it('is undefined when not given', () => {
    expect(extraFlag(order({ other: 1 }), 'flag', invalid)).toBeUndefined();
  });

  it.each(['yes', 'on', 1, 0, ''])('refuses %j rather than read it as false', (value) => {
    expect(() => extraFlag(order({ flag: value }), 'flag', invalid)).toThrow(
      `extra.flag is true or false, not ${JSON.stringify(value)}`,
    );
  });
});

describe('yes-or-no extras at the brokers that take them', () => {
  it('Alpaca: extended_hours "True" is extended hours', () => {
    expect(toAlpacaOrder(order({ extended_hours: 'True' }), 'id1')).toMatchObject({ extended_hours: true });
    expect(() => toAlpacaOrder(order({ extended_hours: 'yes' }), 'id1')).toThrow(
      'extra.extended_hours is true or false, not "yes"',
    );
  });

  it('E*TRADE: all_or_none "True" is all or none', () => {
    expect(toEtradeOrder(order({ all_or_none: 'True' }), 'id1').Order[0]).toMatchObject({ allOrNone: true });
  });

  it('Questrade: all_or_none "True" is all or none', () => {
    const submission = toSubmission(order({ all_or_none: 'True' }))({ accountNumber: '1', symbolId: 8049, legIds: [] });
    expect(submission.body).toMatchObject({ isAllOrNone: true });
  });

  it('Trading 212: extended_hours "True" on a market order is extended hours', () => {
    const market = order({ extended_hours: 'True' }, { type: 'market', limit_price: undefined });
    expect(toTrading212Request(market, 'AAPL_US_EQ').body).toMatchObject({ extendedHours: true });
  });
});
