import { describe, expect, it } from 'vitest';
import { createInstruments } from './instruments.ts';
import { sampleTimes } from './matching.ts';
import { createSyntheticQuote } from './quotes.ts';
import { builtInSymbols } from './symbol-list.ts';

const syntheticQuote = createSyntheticQuote(createInstruments(builtInSymbols()).levelOf);

const T = Date.UTC(2025, 0, 6, 14, 30);
const MINUTE = 60_000;

describe('syntheticQuote', () => {
  it('is a function of symbol and time only', () => {
    expect(syntheticQuote('AAPL', 'stock', T)).toBe(syntheticQuote('aapl', 'stock', T));
    expect(syntheticQuote('BTC/USD', 'crypto', T)).toBe(syntheticQuote('BTCUSD', 'crypto', T));
    expect(syntheticQuote('AAPL', 'stock', T)).not.toBe(syntheticQuote('MSFT', 'stock', T));
  });

  it('walks smoothly around a plausible level', () => {
    const week = Array.from({ length: 7 * 24 * 60 }, (_, minute) =>
      syntheticQuote('AAPL', 'stock', T + minute * MINUTE),
    );
    expect(Math.min(...week)).toBeGreaterThan(190 * 0.85);
    expect(Math.max(...week)).toBeLessThan(190 * 1.15);
    const steps = week.slice(1).map((price, i) => Math.abs(price / (week[i] ?? price) - 1));
    expect(Math.max(...steps)).toBeLessThan(0.005);
    expect(new Set(week).size).toBeGreaterThan(1000);
  });

  it('walks around the listed level, and a hashed one for a key the list lacks', () => {
    expect(syntheticQuote('EURUSD', 'forex', T)).toBeCloseTo(1.085, 1);
    expect(syntheticQuote('ES', 'future', T) / 5500).toBeCloseTo(1, 0);
    const unknown = syntheticQuote('ZZZQ', 'stock', T);
    expect(unknown).toBeGreaterThan(8);
    expect(unknown).toBeLessThan(600);
  });
});

describe('sampleTimes', () => {
  it('samples on minute boundaries in (from, to], whenever the account is touched', () => {
    expect(sampleTimes(T + 10_000, T + 2 * MINUTE + 5_000)).toEqual([T + MINUTE, T + 2 * MINUTE]);
    expect(sampleTimes(T, T + MINUTE)).toEqual([T + MINUTE]);
    expect(sampleTimes(T, T)).toEqual([]);
  });

  it('looks back at most a week', () => {
    const samples = [...sampleTimes(T - 30 * 24 * 60 * MINUTE, T)];
    expect(samples).toHaveLength(7 * 24 * 60);
  });
});
