// The symbolId of an option comes from its underlying's chain, under the OCC root the trader named.
import { describe, expect, it } from 'vitest';
import { brokerFailure as failure } from '../../core/expect-failure.ts';
import type { HttpClient, HttpRequest } from '../../core/http.ts';
import { symbolIdOf } from './symbols.ts';

/** A Questrade that lists AAPL (8049) and, for it, one expiry whose only root is `root`. */
function questrade(root: string): HttpClient {
  return {
    async request(request: HttpRequest) {
      const body =
        request.path === '/v1/symbols/search'
          ? { symbols: [{ symbol: 'AAPL', symbolId: 8049 }] }
          : {
              optionChain: [
                {
                  expiryDate: '2026-12-18T00:00:00.000000-05:00',
                  chainPerRoot: [
                    { root, chainPerStrikePrice: [{ strikePrice: 200, callSymbolId: 7001, putSymbolId: 7002 }] },
                  ],
                },
              ],
            };
      return { status: 200, headers: new Headers(), body };
    },
  };
}

describe('questrade option symbolId', () => {
  it('the root named in the OCC symbol gives the contract', async () => {
    expect(await symbolIdOf(questrade('AAPL'), 'listed', 'AAPL  261218C00200000', 'option', 0)).toBe(7001);
  });

  it('a root the chain does not list is refused, not taken for the first root listed (another contract)', async () => {
    // AAPL1: an adjusted contract after a corporate action, another deliverable than AAPL's.
    const error = await failure(symbolIdOf(questrade('AAPL1'), 'unlisted', 'AAPL  261218P00200000', 'option', 0));
    expect(error).toMatchObject({ kind: 'InvalidOrder' });
    expect(error.message).toBe('Questrade: no AAPL 2026-12-18 200 P option is listed');
  });
});
