import { describe, expect, it } from 'vitest';
import { storableJson } from './activity-writer.ts';

describe('storableJson', () => {
  it('replaces what jsonb refuses (\\u0000, lone surrogates) and keeps the rest as JSON.stringify does', () => {
    const value = { a: 'x\u0000y', b: 'lone \ud800 high', c: 'lone \udc00 low', d: 'pair 😀', n: [1, null, true] };
    expect(JSON.parse(storableJson(value))).toEqual({
      a: 'x\ufffdy',
      b: 'lone \ufffd high',
      c: 'lone \ufffd low',
      d: 'pair 😀',
      n: [1, null, true],
    });
  });

  it('leaves ordinary values alone, a literal backslash-u text included', () => {
    for (const value of [{ symbol: 'AAPL', quantity: 1 }, { text: 'typed \\u0000 by hand' }, 'plain', 42]) {
      expect(storableJson(value)).toBe(JSON.stringify(value));
    }
  });
});
