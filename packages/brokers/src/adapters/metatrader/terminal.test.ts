// The name a signal's symbol goes to a MetaTrader server under.
import { describe, expect, it } from 'vitest';
import { matchSymbol, wantedName } from './terminal.ts';

describe('wantedName', () => {
  it('spells pairs as servers do and sends any other name as the order carries it', () => {
    expect(wantedName({ symbol: 'EUR/USD' })).toBe('EURUSD');
    expect(wantedName({ symbol: 'AAPL' })).toBe('AAPL');
    // Index CFDs whose names read like contract months (Hang Seng, Euro Stoxx 50, SMI 20, Singapore 30).
    for (const symbol of ['HK50', 'EU50', 'CH20', 'SG30']) expect(wantedName({ symbol })).toBe(symbol);
    expect(matchSymbol(wantedName({ symbol: 'HK50' }), ['EURUSD', 'HK50.cash'], 'FTMO-Demo')).toBe('HK50.cash');
  });
});
