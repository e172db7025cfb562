import { describe, expect, it } from 'vitest';
import { connectorState, parseAccounts, STATE_LABELS } from './connector-model.ts';

const DAY = 24 * 60 * 60 * 1000;
const NOW = Date.UTC(2025, 0, 15, 12);

describe('connector state (SPEC §2, §9 expiry warning)', () => {
  const state = (providerName: string, inDays: number | null, isActive = true) =>
    connectorState({ providerName, isActive, expiresAt: inDays === null ? null : NOW + inDays * DAY }, NOW);

  it("is 'expired' once expiresAt passed, active or not", () => {
    expect(state('paper', -0.001)).toBe('expired');
    expect(state('paper', -3, false)).toBe('expired');
    expect(STATE_LABELS.expired).toBe('expired');
  });

  it("warns 'about to expire soon' within 6 days", () => {
    expect(state('alpaca', 6)).toBe('expiring');
    expect(state('alpaca', 5.5)).toBe('expiring');
    expect(state('alpaca', 6.01)).toBe('active');
    expect(STATE_LABELS.expiring).toBe('about to expire soon');
  });

  it('warns within 3 days for schwab', () => {
    expect(state('schwab', 5)).toBe('active');
    expect(state('schwab', 3.01)).toBe('active');
    expect(state('schwab', 3)).toBe('expiring');
    expect(state('schwab', 1)).toBe('expiring');
  });

  it('does not warn daily about sessions that end every day (Kite, E*TRADE), and still says when one ended', () => {
    expect(state('zerodha', 0.5)).toBe('active');
    expect(state('etrade', 0.01)).toBe('active');
    expect(state('zerodha', -0.01)).toBe('expired');
  });

  it('never warns a deactivated connector about expiry, nor one that does not expire', () => {
    expect(state('alpaca', 2, false)).toBe('deactivated');
    expect(state('alpaca', null)).toBe('active');
    expect(state('alpaca', null, false)).toBe('deactivated');
  });
});

describe('connector accounts (SPEC §3: a JSON list parsed on receipt)', () => {
  it('reads id, name, data fields and demo', () => {
    expect(
      parseAccounts('[{"id":"PA-1","name":"Paper account","dataType":"cash","dataCurrency":"USD","demo":true}]'),
    ).toEqual([
      { id: 'PA-1', name: 'Paper account', dataTitle: null, dataType: 'cash', dataCurrency: 'USD', demo: true },
    ]);
  });

  it('names an unnamed account by its id; skips entries without id and bad JSON', () => {
    expect(parseAccounts('[{"id":7},{"name":"x"},null]')).toEqual([
      { id: '7', name: '7', dataTitle: null, dataType: null, dataCurrency: null, demo: false },
    ]);
    expect(parseAccounts('not json')).toEqual([]);
    expect(parseAccounts('{"id":"1"}')).toEqual([]);
  });
});
