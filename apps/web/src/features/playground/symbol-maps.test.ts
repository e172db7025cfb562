import { describe, expect, it } from 'vitest';
import { mappedSymbol, symbolMapsOf } from './symbol-maps.ts';

const hooks = [
  { key: 'h1', name: 'Crypto', accountId: 'A', rules: '{"symbolMap": {"BTCUSD": "BTC/USD", "ES1!": "ESZ2026"}}' },
  { key: 'h2', name: 'No map', accountId: 'A', rules: '{"maxQuantity": 5}' },
  { key: 'h3', name: 'Other account', accountId: 'B', rules: '{"symbolMap": {"SPY": "SPX"}}' },
  { key: 'h4', name: 'Broken', accountId: 'A', rules: '{' },
];

describe('playground symbol maps', () => {
  it("keeps the account's webhooks that map symbols", () => {
    expect(symbolMapsOf(hooks, 'A')).toEqual([
      {
        hookKey: 'h1',
        hookName: 'Crypto',
        map: [
          ['BTCUSD', 'BTC/USD'],
          ['ES1!', 'ESZ2026'],
        ],
      },
    ]);
    expect(symbolMapsOf(hooks, 'C')).toEqual([]);
  });

  it('maps the draft’s symbol as the server does: as written, else in capitals', () => {
    const [crypto] = symbolMapsOf(hooks, 'A');
    const map = crypto?.map ?? [];
    expect(mappedSymbol(map, { symbol: 'BTCUSD' })).toBe('BTC/USD');
    expect(mappedSymbol(map, { symbol: ' btcusd ' })).toBe('BTC/USD');
    expect(mappedSymbol(map, { symbol: 'AAPL' })).toBeUndefined();
    expect(mappedSymbol(map, {})).toBeUndefined();
  });

  it('maps a symbol with an exchange prefix by its own key, on its exchange, as the server does', () => {
    const [crypto] = symbolMapsOf(hooks, 'A');
    const map = crypto?.map ?? [];
    expect(mappedSymbol(map, { symbol: 'CME_MINI:ES1!' })).toBe('CME_MINI:ESZ2026');
    expect(mappedSymbol(map, { symbol: 'coinbase:btcusd' })).toBe('COINBASE:BTC/USD');
    expect(mappedSymbol(map, { symbol: 'NASDAQ:AAPL' })).toBeUndefined();
    // Keys match whatever their case, as on the server: a key written es1! maps ES1!.
    expect(mappedSymbol([['es1!', 'ESZ2030']], { symbol: 'ES1!' })).toBe('ESZ2030');
  });
});
