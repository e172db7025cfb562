import { expect, it } from 'vitest';
import { matchException } from './exceptions.ts';

const table = {
  exact: { 'EOrder:Insufficient funds': 'InsufficientFunds' },
  broad: {
    duplicate: 'DuplicateOrder',
    'duplicate clordid was rejected': 'InvalidOrder',
    'not found': 'OrderNotFound',
  },
} as const;

it('matches a whole message exactly first, else the longest entry it contains, ignoring case', () => {
  expect(matchException(table, ' EOrder:Insufficient funds ')).toBe('InsufficientFunds');
  expect(matchException(table, 'eorder:insufficient funds')).toBeUndefined();
  expect(matchException(table, 'Duplicate order')).toBe('DuplicateOrder');
  expect(matchException(table, 'Duplicate clOrdID was rejected')).toBe('InvalidOrder');
  expect(matchException(table, 'Order not found')).toBe('OrderNotFound');
});

it('names nothing without a table, a message or a match', () => {
  expect(matchException(undefined, 'duplicate')).toBeUndefined();
  expect(matchException(table, undefined)).toBeUndefined();
  expect(matchException(table, 'margin call')).toBeUndefined();
});
