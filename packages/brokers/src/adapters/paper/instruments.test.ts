import { describe, expect, it } from 'vitest';
import { createInstruments } from './instruments.ts';
import { builtInSymbols, parseSymbolList, SymbolListError } from './symbol-list.ts';

const builtIn = createInstruments(builtInSymbols());

describe('the symbol list', () => {
  it('ships a few hundred US stocks and ETFs, major crypto and forex pairs, futures roots and CFDs', () => {
    const count = (section: string) => builtInSymbols().filter((entry) => entry.section === section).length;
    expect(count('stock') + count('etf')).toBeGreaterThanOrEqual(300);
    expect(count('crypto')).toBeGreaterThanOrEqual(30);
    expect(count('forex')).toBeGreaterThanOrEqual(30);
    expect(count('future')).toBeGreaterThanOrEqual(30);
    expect(count('cfd')).toBeGreaterThanOrEqual(10);
  });

  it('reads canonical spellings and options', () => {
    const entries = parseSymbolList(
      '# mine\n[crypto]\nXBTUSD 60000\n[future]\nMES 5000 multiplier=5 tick=0.25 months=HMUZ # micro\n',
      'mine.txt',
    );
    expect(entries).toEqual([
      { section: 'crypto', symbol: 'BTC/USD', price: 60000 },
      { section: 'future', symbol: 'MES', price: 5000, multiplier: 5, tick: 0.25, months: 'HMUZ' },
    ]);
  });

  it.each([
    ['AAPL 190', 'mine.txt line 1: a symbol before any [section]'],
    ['[bonds]', 'mine.txt line 1: unknown section [bonds]'],
    ['[stock]\nAAPL cheap', 'mine.txt line 2: price "cheap" must be a positive number'],
    ['[stock]\nAAPL 190 lot=5', 'mine.txt line 2: unknown option "lot=5"'],
    ['[stock]\nEURUSD 1.1', 'mine.txt line 2: "EURUSD" is not a stock symbol (read as forex)'],
    ['[future]\nES 5000 tick=0.25', 'mine.txt line 2: a future root needs multiplier= and tick='],
    ['[future]\nES 5000 multiplier=50 tick=0.25 months=ABC', 'mine.txt line 2: months=ABC must be month codes'],
    ['[cfd]\nUS500 5000 margin=2', 'mine.txt line 2: margin=2 must be a fraction in (0, 1]'],
  ])('refuses %j, naming the line', (text, message) => {
    expect(() => parseSymbolList(text, 'mine.txt')).toThrow(SymbolListError);
    expect(() => parseSymbolList(text, 'mine.txt')).toThrow(message);
  });

  it('refuses a pair whose quote currency nothing prices in USD', () => {
    const entries = parseSymbolList('[forex]\nEUR/SEK 11.4', 'mine.txt');
    expect(() => createInstruments(entries)).toThrow('EUR/SEK: nothing prices SEK in USD (list SEK/USD or USD/SEK)');
  });
});

describe('instruments', () => {
  it('tells listed symbols from unknown ones', () => {
    expect(builtIn.resolve('AAPL', 'stock')).toMatchObject({
      listed: true,
      multiplier: 1,
      tick: 0.01,
      quantityDecimals: 4,
    });
    expect(builtIn.resolve('ZZZZZQ', 'stock').listed).toBe(false);
    expect(builtIn.resolve('SPY   271217P00540000', 'option')).toMatchObject({ listed: true, multiplier: 100 });
    expect(builtIn.resolve('ZZZZZQ271217P00540000', 'option').listed).toBe(false);
    // ES lists March, June, September and December.
    expect(builtIn.resolve('ESZ2026', 'future').listed).toBe(true);
    expect(builtIn.resolve('ESF2027', 'future').listed).toBe(false);
    expect(builtIn.resolve('XXZ2026', 'future').listed).toBe(false);
  });

  it('prices futures at their multiplier, margined, expiring on the third Friday', () => {
    expect(builtIn.resolve('ES1!', 'future')).toMatchObject({
      priceKey: 'ES',
      multiplier: 50,
      tick: 0.25,
      margin: 0.06,
    });
    expect(builtIn.resolve('ESZ2026', 'future').expiresAt).toBe(Date.UTC(2026, 11, 18, 20));
  });

  it('converts pairs quoted in another currency to USD at a fixed rate, and takes USDT as USD', () => {
    expect(builtIn.resolve('USD/JPY', 'forex').multiplier).toBeCloseTo(1 / 150, 10);
    expect(builtIn.resolve('EUR/GBP', 'forex')).toMatchObject({ multiplier: 1.27, margin: 0.02 });
    expect(builtIn.resolve('BTC/USDT', 'crypto')).toMatchObject({ listed: true, priceKey: 'BTCUSD', multiplier: 1 });
    expect(builtIn.resolve('ETH/BTC', 'crypto')).toMatchObject({ listed: true, multiplier: 65000 });
  });

  it('trades index CFDs, and any listed symbol as a CFD', () => {
    expect(builtIn.resolve('US500', 'cfd')).toMatchObject({ listed: true, priceKey: 'US500', margin: 0.05 });
    expect(builtIn.resolve('AAPL', 'cfd')).toMatchObject({ listed: true, priceKey: 'AAPL', margin: 0.2, class: 'cfd' });
    expect(builtIn.resolve('ZZZZZQ', 'cfd').listed).toBe(false);
  });
});
