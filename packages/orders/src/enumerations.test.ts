import { describe, expect, it } from 'vitest';
import {
  actionsForClass,
  DURATION_MEANINGS,
  isActionValidForClass,
  ORDER_CLASS_INFO,
  QUANTITY_TYPE_MEANINGS,
  sortClasses,
} from './enumerations.ts';
import { parseSymbol } from './symbols/parse-symbol.ts';
import { now } from './test-fixtures.ts';
import { DURATIONS, ORDER_ACTIONS, ORDER_CLASSES, QUANTITY_TYPES } from './types.ts';

describe('enumerations', () => {
  it('carries the SPEC sort weights', () => {
    const weights = Object.fromEntries(
      ORDER_CLASSES.map((orderClass) => [orderClass, ORDER_CLASS_INFO[orderClass].weight]),
    );
    expect(weights).toEqual({
      bond: 33,
      cfd: 13,
      commodity: 14,
      crypto: 12,
      forex: 11,
      fund: 31,
      future: 21,
      index: 32,
      option: 22,
      stock: 1,
      warrant: 23,
    });
    expect(sortClasses(['bond', 'option', 'stock', 'forex'])).toEqual(['stock', 'forex', 'option', 'bond']);
  });

  it('gives every class a label and examples of its own class', () => {
    for (const orderClass of ORDER_CLASSES) {
      const info = ORDER_CLASS_INFO[orderClass];
      expect(info.label).not.toBe('');
      expect(info.examples.length).toBeGreaterThan(0);
      for (const example of info.examples) {
        const parsed = parseSymbol(example, { now });
        // Recognizable classes must recognize their own examples; the rest parse as plain tickers.
        if (parsed.recognized) expect([orderClass, 'forex']).toContain(parsed.class);
      }
    }
  });

  it('explains all eighteen durations and every quantity type', () => {
    expect(DURATIONS).toHaveLength(18);
    for (const duration of DURATIONS) expect(DURATION_MEANINGS[duration]).toMatch(/\w/);
    for (const quantityType of QUANTITY_TYPES) expect(QUANTITY_TYPE_MEANINGS[quantityType]).toMatch(/\w/);
  });

  it('limits options to the four open/close actions', () => {
    expect(actionsForClass('option')).toEqual(['buy_to_open', 'buy_to_close', 'sell_to_open', 'sell_to_close']);
    expect(isActionValidForClass('buy', 'option')).toBe(false);
    expect(isActionValidForClass('buy_to_open', 'stock')).toBe(false);
    for (const action of ORDER_ACTIONS) {
      expect(ORDER_CLASSES.some((orderClass) => isActionValidForClass(action, orderClass))).toBe(true);
    }
  });
});
