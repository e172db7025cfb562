// tastytrade names futures with a one-digit year (/ESZ6): a contract further off is refused, not
// sent as the one of the current decade.
import { describe, expect, it } from 'vitest';
import { instrumentOf } from './symbols.ts';

const year = new Date().getUTCFullYear();

describe('instrumentOf', () => {
  it('names a contract within five years by its one-digit year, and refuses one ten years off', () => {
    expect(instrumentOf(`ESZ${year + 1}`, 'future')).toMatchObject({ symbol: `/ESZ${(year + 1) % 10}` });
    expect(() => instrumentOf(`ESZ${year + 10}`, 'future')).toThrow(
      `ESZ${year + 10} is too far off to name with a one-digit year`,
    );
  });
});
