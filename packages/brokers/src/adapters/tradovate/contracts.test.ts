// Tradovate names contracts with a one-digit year: a contract further off is refused, not sent as
// the one of the current decade.
import { describe, expect, it } from 'vitest';
import { parseContract } from './contracts.ts';

const NOW = Date.UTC(2026, 10, 27);

describe('parseContract', () => {
  it('names a contract within five years by its one-digit year', () => {
    expect(parseContract('ESZ2026', NOW)).toEqual({ kind: 'dated', name: 'ESZ6' });
    expect(parseContract('NQH31', NOW)).toEqual({ kind: 'dated', name: 'NQH1' });
  });

  it('refuses a contract whose one-digit year would name another decade’s (ESZ2036 is not ESZ6)', () => {
    expect(() => parseContract('ESZ2036', NOW)).toThrow('ESZ2036 is too far off to name with a one-digit year');
    expect(() => parseContract('ESZ33', NOW)).toThrow('ESZ33 is too far off to name with a one-digit year');
  });
});
