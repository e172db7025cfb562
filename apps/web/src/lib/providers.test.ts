import { describe, expect, it } from 'vitest';
import { PROVIDER_TITLE_FALLBACK, parseProviders, providerTitle } from './providers.tsx';

const json = JSON.stringify([
  {
    name: 'alpaca',
    title: 'Alpaca',
    status: 'active',
    authentication: { type: 'open' },
    reference: { symbol: { required: true } },
  },
  { name: 'paper', title: '', status: 'active', authentication: { type: 'credentials', credentials: [] } },
  { title: 'nameless' },
]);

describe('providers (SPEC §3 Provider)', () => {
  it('parses the JSON string into a map by name', () => {
    const providers = parseProviders(json);
    expect([...providers.keys()]).toEqual(['alpaca', 'paper']);
    expect(providers.get('alpaca')?.reference.symbol?.required).toBe(true);
  });

  it("falls back to 'Brokerage' for a missing title and to an empty reference", () => {
    const providers = parseProviders(json);
    expect(providers.get('paper')?.title).toBe(PROVIDER_TITLE_FALLBACK);
    expect(providers.get('paper')?.reference).toEqual({});
    expect(providerTitle(providers, 'alpaca')).toBe('Alpaca');
    expect(providerTitle(providers, 'unknown')).toBe('Brokerage');
    expect(providerTitle(providers, null)).toBe('Brokerage');
  });

  it('rejects a payload that is not an array', () => {
    expect(() => parseProviders('{}')).toThrow(/array/);
    expect(() => parseProviders('not json')).toThrow();
  });
});
