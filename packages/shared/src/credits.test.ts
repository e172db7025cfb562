import { describe, expect, it } from 'vitest';
import { CREDIT_CAUSES, creditCauseLabel, creditsAlert } from './credits.ts';

describe('creditsAlert', () => {
  it('is exhausted at 0 or below, low at ≤ 20 % of the last grant, else nothing', () => {
    const at = (balance: number, lastGrant: number | null) => creditsAlert({ balance, lastGrant, unlimited: false });
    expect(at(0, 5)).toBe('exhausted');
    expect(at(-2, null)).toBe('exhausted');
    expect(at(1, 5)).toBe('low');
    expect(at(2, 5)).toBeNull();
    expect(at(20, 100)).toBe('low');
    expect(at(21, 100)).toBeNull();
    expect(at(3, null)).toBeNull();
  });

  it('never warns with unlimited credits', () => {
    expect(creditsAlert({ balance: 0, lastGrant: 5, unlimited: true })).toBeNull();
  });

  it('labels every cause, and an unknown one as itself', () => {
    for (const cause of CREDIT_CAUSES) expect(creditCauseLabel(cause)).not.toBe(cause);
    expect(creditCauseLabel('future')).toBe('future');
  });
});
