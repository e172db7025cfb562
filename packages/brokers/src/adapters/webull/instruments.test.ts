// Webull names futures with a one-digit year: a contract further off is refused, not sent as the
// one of the current decade.
import { describe, expect, it } from 'vitest';
import { webullInstrument } from './instruments.ts';

const year = new Date().getUTCFullYear();

describe('webullInstrument', () => {
  it('names a contract within five years by its one-digit year, and refuses one ten years off', () => {
    expect(webullInstrument(`ESZ${year + 1}`, 'future')).toEqual({
      symbol: `ESZ${(year + 1) % 10}`,
      instrumentType: 'FUTURES',
      tick: 0.25,
    });
    expect(() => webullInstrument(`ESZ${year + 10}`, 'future')).toThrow(
      `ESZ${year + 10} is too far off to name with a one-digit year`,
    );
  });
});
