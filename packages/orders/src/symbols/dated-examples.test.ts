import { describe, expect, it } from 'vitest';
import { NOW, optionsBroker } from '../test-fixtures.ts';
import { currentExample, exampleContractMonth, exampleOptionExpiry, withCurrentExamples } from './dated-examples.ts';
import { parseSymbol } from './parse-symbol.ts';

// NOW is 15 June 2025: options expire on 19 September 2025, futures are the September 2025 contract.
describe('dated examples', () => {
  it.each([
    ['SPY240119C00450000', 'SPY250919C00450000'],
    ['AAPL  250117C00150000', 'AAPL  250919C00150000'],
    ['SPY_271217P00500000', 'SPY_250919P00500000'],
    ['AAPL271217C200', 'AAPL250919C200'],
    ['ESU2026', 'ESU2025'],
    ['ESZ2025', 'ESU2025'],
    ['NQH26', 'NQU25'],
    ['/ESU6', '/ESU5'],
    ['CME:NQH27', 'CME:NQU25'],
    ['{"expiration": "2025-06-30T21:00:00Z"}', '{"expiration": "2025-09-19T21:00:00Z"}'],
    ['{"expiration": "2026-06-30"}', '{"expiration": "2025-09-19"}'],
  ])('moves the date of %s to one ahead, keeping its spelling', (example, current) => {
    expect(currentExample(example, NOW)).toBe(current);
  });

  it.each(['AAPL', 'BRK.B', 'ES1!', 'US500', 'DE40', 'UK100', 'HK50', 'EUR/USD', '{"magic": 123456}'])(
    'leaves %s, which has no date, as it is',
    (example) => {
      expect(currentExample(example, NOW)).toBe(example);
    },
  );

  it('spells a year ending in 1 or 2 in two digits, never as a continuous lookalike (ESH1)', () => {
    expect(currentExample('/ESU6', Date.UTC(2031, 0, 15))).toBe('/ESH31');
    expect(currentExample('NQZ5', Date.UTC(2032, 7, 15))).toBe('NQU32');
    expect(currentExample('NQZ5', Date.UTC(2033, 7, 15))).toBe('NQU3');
  });

  it('keeps numbers as they are', () => {
    expect(currentExample(190.5, NOW)).toBe(190.5);
  });

  it('is always ahead of the clock: a third Friday months away, the next quarterly contract month', () => {
    for (let month = 0; month < 12 * 20; month += 1) {
      for (const day of [1, 15, 28]) {
        const now = Date.UTC(2024, month, day, 23);
        const expiry = exampleOptionExpiry(now);
        expect(expiry.getUTCDay()).toBe(5);
        expect(expiry.getUTCDate()).toBeGreaterThanOrEqual(15);
        expect(expiry.getUTCDate()).toBeLessThanOrEqual(21);
        expect(expiry.getTime() - now).toBeGreaterThan(60 * 86_400_000);
        const contract = exampleContractMonth(now);
        expect([3, 6, 9, 12]).toContain(contract.month);
        const today = new Date(now);
        const monthsAhead = (contract.year - today.getUTCFullYear()) * 12 + contract.month - (today.getUTCMonth() + 1);
        expect(monthsAhead).toBeGreaterThanOrEqual(1);
        expect(monthsAhead).toBeLessThanOrEqual(3);
        // Every spelling reads back, with the same clock, as that one contract.
        for (const spelling of ['ESZ4', 'ESZ24', 'ESZ2024']) {
          const parsed = parseSymbol(String(currentExample(spelling, now)), { now: () => now });
          expect(parsed.parts).toMatchObject({ kind: 'future', month: contract.month, year: contract.year });
        }
      }
    }
  });

  it('moves every example of a provider’s reference, leaving the rest of it alone', () => {
    const provider = {
      ...optionsBroker,
      reference: {
        ...optionsBroker.reference,
        extra: { examples: ['{"expiration": "2020-01-01"}'], comments: 'as is' },
      },
    };
    const current = withCurrentExamples(provider, NOW);
    expect(current.reference.symbol?.examples).toEqual(['SPY', 'SPY_250919C00600000']);
    expect(current.reference.symbol?.examplesClass).toEqual(optionsBroker.reference.symbol?.examplesClass);
    expect(current.reference.extra).toEqual({ examples: ['{"expiration": "2025-09-19"}'], comments: 'as is' });
    expect(provider.reference.symbol?.examples).toEqual(['SPY', 'SPY_271217C00600000']);
  });
});
