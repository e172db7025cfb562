// The name a signal's symbol goes to a MetaTrader server under.
import { normalizeOrderOrThrow } from '@router/orders';
import { describe, expect, it } from 'vitest';
import { toProvider } from '../../core/registry.ts';
import { metatraderDescriptor } from './descriptor.ts';
import { matchSymbol, wantedName } from './terminal.ts';

describe('wantedName', () => {
  it('spells pairs as servers do and sends any other name as the order carries it', () => {
    expect(wantedName({ symbol: 'EUR/USD' })).toBe('EURUSD');
    expect(wantedName({ symbol: 'AAPL' })).toBe('AAPL');
    // Index CFDs whose names read like contract months (Hang Seng, Euro Stoxx 50, SMI 20, Singapore 30).
    for (const symbol of ['HK50', 'EU50', 'CH20', 'SG30']) expect(wantedName({ symbol })).toBe(symbol);
    expect(matchSymbol(wantedName({ symbol: 'HK50' }), ['EURUSD', 'HK50.cash'], 'FTMO-Demo')).toBe('HK50.cash');
  });

  it('takes a pair as the server names it, suffix and all, which other brokers refuse', () => {
    const provider = toProvider(metatraderDescriptor);
    const order = normalizeOrderOrThrow({ symbol: 'EURUSD.pro', action: 'buy', quantity: 0.1 }, { provider });
    expect(matchSymbol(wantedName(order), ['EURUSD', 'EURUSD.pro'], 'ICMarketsSC-Demo')).toBe('EURUSD.pro');
    const { serverNames: _names, ...symbol } = provider.reference.symbol ?? {};
    const elsewhere = { ...provider, reference: { ...provider.reference, symbol } };
    expect(() =>
      normalizeOrderOrThrow({ symbol: 'EURUSD.pro', action: 'buy', quantity: 0.1 }, { provider: elsewhere }),
    ).toThrow(/^symbol: EURUSD\.pro is the pair EURUSD with "\.pro"/);
  });
});
