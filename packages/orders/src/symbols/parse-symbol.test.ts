import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OrderValidationError } from '../errors.ts';
import { now } from '../test-fixtures.ts';
import { INDEX_CFD_NAMES, resolveYear } from './future.ts';
import { isClassCompatible, parseSymbol } from './parse-symbol.ts';
import { FUTURE_MONTH_CODES } from './parsed-symbol.ts';

const parse = (symbol: string) => parseSymbol(symbol, { now });

describe('parseSymbol', () => {
  it.each([
    // futures: every spelling of one contract has one canonical form
    ['ESZ4', 'ESZ2024', 'future'],
    ['ESZ24', 'ESZ2024', 'future'],
    ['ESZ2024', 'ESZ2024', 'future'],
    ['esz24', 'ESZ2024', 'future'],
    ['/ESZ24', 'ESZ2024', 'future'],
    ['NQH26', 'NQH2026', 'future'],
    ['6EM5', '6EM2025', 'future'],
    ['ES1!', 'ES1!', 'future'],
    ['NQ2!', 'NQ2!', 'future'],
    ['6E1!', '6E1!', 'future'],
    // options: OCC with spaces, underscore or nothing; strike zeros optional
    ['AAPL  240119C00150000', 'AAPL  240119C00150000', 'option'],
    ['AAPL_240119C00150000', 'AAPL  240119C00150000', 'option'],
    ['AAPL240119C00150000', 'AAPL  240119C00150000', 'option'],
    ['AAPL240119C150', 'AAPL  240119C00150000', 'option'],
    ['AAPL 240119C150.000', 'AAPL  240119C00150000', 'option'],
    ['aapl240119c150', 'AAPL  240119C00150000', 'option'],
    ['SPY271217P552.5', 'SPY   271217P00552500', 'option'],
    ['SPXW  250620P05000000', 'SPXW  250620P05000000', 'option'],
    ['BRKB  250117C00450000', 'BRKB  250117C00450000', 'option'],
    // pairs
    ['EURUSD', 'EUR/USD', 'forex'],
    ['EUR/USD', 'EUR/USD', 'forex'],
    ['EUR_USD', 'EUR/USD', 'forex'],
    ['EUR-USD', 'EUR/USD', 'forex'],
    ['eurusd', 'EUR/USD', 'forex'],
    ['XAUUSD', 'XAU/USD', 'forex'],
    ['BTCUSD', 'BTC/USD', 'crypto'],
    ['BTC/USD', 'BTC/USD', 'crypto'],
    ['BTC-USDT', 'BTC/USDT', 'crypto'],
    ['BTCUSDT', 'BTC/USDT', 'crypto'],
    ['XBTUSD', 'BTC/USD', 'crypto'],
    ['XBT/EUR', 'BTC/EUR', 'crypto'],
    ['ETHBTC', 'ETH/BTC', 'crypto'],
    // Tether in dollars (Kraken's USDTUSD), not dollars in TrueUSD; TrueUSD still quotes BTC.
    ['USDTUSD', 'USDT/USD', 'crypto'],
    ['KRAKEN:USDTUSD', 'USDT/USD', 'crypto'],
    ['BTCTUSD', 'BTC/TUSD', 'crypto'],
    ['EURUSDT', 'EUR/USDT', 'crypto'],
    ['NEWCOIN/USDT', 'NEWCOIN/USDT', 'crypto'],
    // a coin the list does not know over USDT or USDC: no ticker ends so
    ['1INCHUSDT', '1INCH/USDT', 'crypto'],
    ['BINANCE:1INCHUSDT', '1INCH/USDT', 'crypto'],
    ['API3USDC', 'API3/USDC', 'crypto'],
    ['BINANCE:BTCUSDT', 'BTC/USDT', 'crypto'],
    // indices and plain tickers
    ['^SPX', '^SPX', 'index'],
    ['AAPL', 'AAPL', 'stock'],
    ['aapl', 'AAPL', 'stock'],
    ['BRK.B', 'BRK.B', 'stock'],
    ['BF-B', 'BF-B', 'stock'],
    // A .P that follows no crypto pair is a ticker of its own (a preferred share's class).
    ['ABR.P', 'ABR.P', 'stock'],
    // Nor does a PERP (FTX's BTC-PERP is no pair of TradingView's).
    ['BTC-PERP', 'BTC-PERP', 'stock'],
    ['NASDAQ:AAPL', 'AAPL', 'stock'],
    ['US500', 'US500', 'stock'],
    // index CFDs whose names read like a contract month: HK50 is the Hang Seng, not May 2050
    ['HK50', 'HK50', 'stock'],
    ['CN50', 'CN50', 'stock'],
    ['CH20', 'CH20', 'stock'],
    ['SG30', 'SG30', 'stock'],
    ['EU50', 'EU50', 'stock'],
    ['DAX40', 'DAX40', 'stock'],
    ['IBEX35', 'IBEX35', 'stock'],
    // VN30 is Ho Chi Minh City's index, not root V in July 2030; PH30 is the Philippine index
    ['VN30', 'VN30', 'stock'],
    ['PH30', 'PH30', 'stock'],
    ['PEPPERSTONE:HK33', 'HK33', 'stock'],
    // a year more than ten years from now is no contract: another market's code or a typo
    ['AG0942', 'AG0942', 'stock'],
    ['ESZ0024', 'ESZ0024', 'stock'],
    ['AU2506', 'AU2506', 'stock'],
    ['ESZ2036', 'ESZ2036', 'stock'],
    ['ESZ2035', 'ESZ2035', 'future'],
    ['ESZ2015', 'ESZ2015', 'future'],
    ['ESZ2014', 'ESZ2014', 'stock'],
    ['NQZ34', 'NQZ2034', 'future'],
    ['7203', '7203', 'stock'],
  ])('%j is %j (%s)', (symbol, canonical, orderClass) => {
    const parsed = parse(symbol);
    expect(parsed.canonical).toBe(canonical);
    expect(parsed.class).toBe(orderClass);
  });

  it('returns the parts', () => {
    expect(parse('ESZ24').parts).toEqual({ kind: 'future', root: 'ES', monthCode: 'Z', month: 12, year: 2024 });
    expect(parse('ES2!').parts).toEqual({ kind: 'continuous_future', root: 'ES', position: 2 });
    // TradingView's continuous names past 5 letters (NSE, MCX): "!" names no stock, so never a ticker.
    expect(parse('BANKNIFTY1!').parts).toEqual({ kind: 'continuous_future', root: 'BANKNIFTY', position: 1 });
    expect(parse('NSE:MIDCPNIFTY2!')).toMatchObject({ canonical: 'MIDCPNIFTY2!', class: 'future', exchange: 'NSE' });
    expect(parse('NATURALGAS1!').class).toBe('future');
    expect(parse('AAPL240119P150.5').parts).toEqual({
      kind: 'option',
      root: 'AAPL',
      expiry: '2024-01-19',
      right: 'P',
      strike: 150.5,
    });
    expect(parse('XBTUSD').parts).toEqual({ kind: 'pair', base: 'BTC', quote: 'USD' });
    expect(parse('NASDAQ:AAPL')).toMatchObject({ exchange: 'NASDAQ', recognized: false, parts: { kind: 'ticker' } });
  });

  it.each([
    ['', 'symbol: required'],
    ['   ', 'symbol: required'],
    ['AAPL;DROP', 'symbol: unexpected ";" at position 4'],
    ['A'.repeat(65), 'symbol: longer than 64 characters'],
    ['AAPL241319C150', 'symbol: option expiry 241319 is not a date (YYMMDD)'],
    ['AAPL240230C150', 'symbol: option expiry 240230 is not a date (YYMMDD)'],
    ['AAPL240119C0', 'symbol: option strike 0 is out of range'],
    ['{{ticker}}', 'symbol: placeholder {{ticker}} was not replaced by the sender'],
    ['%alert_symbol%', 'symbol: placeholder %alert_symbol% was not replaced by the sender'],
    ['A:B:C', 'symbol: unexpected ":"'],
    // Another platform's name for a future or a pair: each went to the broker as a stock ticker.
    [
      '/ES',
      'symbol: /ES is no symbol: a leading "/" names a future with its month, as thinkorswim writes /ESZ26; write the month, or ES1! for the front month',
    ],
    [
      'ES=F',
      "symbol: ES=F is Yahoo's name for a continuous future; write ES1! for the front month, or a contract month as ESZ26",
    ],
    ['EURUSD=X', "symbol: EURUSD=X is Yahoo's name for a currency pair; write EURUSD"],
    // "!" ends a continuous contract only: anything else with one went to the broker as a stock ticker.
    ...['ES!', 'ES1!!', 'ES0!', 'ES10!', 'NQ 1!', 'CME_MINI:ES!', 'AAPL!'].map((symbol) => {
      const written = symbol.replace(/^\w+:/, '');
      return [
        symbol,
        `symbol: ${written} is no symbol: "!" only ends a continuous futures contract, its root and position ` +
          '(ES1! the front month, ES2! the next)',
      ];
    }),
    // TradingView's {{ticker}} on a perpetual chart: no stock, and not the pair's spot market.
    // BTCUSDTPERP: its name for Binance's perpetuals until 2022, which older alerts still send.
    ...[
      ['BTCUSDT.P', 'BTCUSDT'],
      ['BINANCE:BTCUSDT.P', 'BTCUSDT'],
      ['btcusdt.p', 'BTCUSDT'],
      ['XBTUSD.P', 'XBTUSD'],
      ['BINANCE:BTCUSDTPERP', 'BTCUSDT'],
      ['ethusdtperp', 'ETHUSDT'],
    ].map(([symbol = '', pair]) => [
      symbol,
      `symbol: ${symbol.replace(/^\w+:/, '').toUpperCase()} is TradingView's name for a perpetual contract, not a ticker; ` +
        `send the pair, ${pair} (the broker's symbol notes say whether it trades the pair's perpetual, and how to choose it)`,
    ]),
  ])('refuses %j', (symbol, message) => {
    expect(() => parse(symbol)).toThrow(new OrderValidationError('symbol', message));
  });

  it('names the given field', () => {
    expect(() => parseSymbol('', { field: 'symbol[2]' })).toThrow('symbol[2]: required');
  });

  // Bloomberg's AAPL:US, Google Finance's AAPL:NASDAQ and Saxo's AAPL:xnas read as TradingView's
  // EXCHANGE:TICKER: an order for the ticker US (or NASDAQ, XNAS) at an exchange "AAPL".
  it.each([
    ['AAPL:US', 'US'],
    ['VOD:LN', 'LN'],
    ['7203:JP', 'JP'],
    ['AAPL:NASDAQ', 'NASDAQ'],
    ['aapl:xnas', 'XNAS'],
    ['SAP:XETR', 'XETR'],
  ])('refuses %s, its market after the ticker', (symbol, market) => {
    const before = symbol.split(':')[0]?.toUpperCase();
    expect(() => parseSymbol(symbol, { field: 'legs[1].symbol' })).toThrow(
      new OrderValidationError(
        'legs[1].symbol',
        `legs[1].symbol: ${symbol} names the market after the ticker, as Bloomberg, Google Finance and Saxo write it; ` +
          `read with the exchange first, as TradingView writes NASDAQ:AAPL, it would be the ticker ${market}: ` +
          `send ${before}, alone or with its exchange first`,
      ),
    );
  });

  // Bloomberg's terminal names, ticker, market code and sector: "AAPL US Equity" went on as the ticker "AAPL US EQUITY".
  it.each([
    ['AAPL US Equity', 'AAPL'],
    ['VOD LN', 'VOD'],
    ['ESZ4 Index', 'ESZ4'],
    ['eurusd curncy', 'EURUSD'],
  ])('refuses %s, a Bloomberg name', (symbol, ticker) => {
    expect(() => parse(symbol)).toThrow(
      new OrderValidationError(
        'symbol',
        `symbol: ${symbol.toUpperCase()} is Bloomberg's name, not a ticker; send ${ticker} as the broker names it, ` +
          'or with its exchange first (NASDAQ:AAPL)',
      ),
    );
  });

  it("keeps IBKR's share class with a space, BRK B", () => {
    expect(parse('BRK B')).toMatchObject({ canonical: 'BRK B', class: 'stock' });
  });

  it.each([
    ['NYSE:SE', 'SE', 'NYSE'],
    ['XETR:SAP', 'SAP', 'XETR'],
    ['SP:SPX', 'SPX', 'SP'],
    ['NASDAQ:US', 'US', 'NASDAQ'],
    ['MYBROKER:AAPL', 'AAPL', 'MYBROKER'],
    // TradingView's {{exchange}} for delayed data: the exchange is the same (Rithmic has no NYMEX_DL route).
    ['NYMEX_DL:CL1!', 'CL1!', 'NYMEX'],
    ['CME_MINI_DL:ES1!', 'ES1!', 'CME_MINI'],
    ['NASDAQ_DLY:US', 'US', 'NASDAQ'],
  ])('keeps %s, a ticker after its exchange', (symbol, canonical, exchange) => {
    expect(parse(symbol)).toMatchObject({ canonical, exchange });
  });
});

describe('resolveYear', () => {
  const at = (year: number, month: number) => Date.UTC(year, month - 1, 15);
  it.each([
    ['4', 12, at(2025, 6), 2024],
    ['5', 3, at(2025, 6), 2025],
    ['9', 12, at(2025, 6), 2029],
    ['0', 3, at(2025, 6), 2030], // tie between 2020 and 2030 goes ahead
    ['0', 3, at(2029, 11), 2030],
    ['9', 12, at(2030, 2), 2029],
    ['24', 12, at(2025, 6), 2024],
    ['99', 12, at(2025, 6), 1999],
    ['30', 12, at(2025, 6), 2030],
    ['01', 3, at(2099, 6), 2101],
    ['2031', 1, at(2025, 6), 2031],
  ])('%s (month %d) is %d', (digits, month, clock, year) => {
    expect(resolveYear(digits, month, clock)).toBe(year);
  });
});

describe('isClassCompatible', () => {
  it('lets cfd wrap anything and metals be commodities', () => {
    expect(isClassCompatible(parse('EURUSD'), 'cfd')).toBe(true);
    expect(isClassCompatible(parse('XAUUSD'), 'commodity')).toBe(true);
    expect(isClassCompatible(parse('EURUSD'), 'commodity')).toBe(false);
    expect(isClassCompatible(parse('ESZ24'), 'stock')).toBe(false);
    expect(isClassCompatible(parse('AAPL'), 'fund')).toBe(true);
  });
});

describe('parseSymbol properties', () => {
  const month = fc.constantFrom(...FUTURE_MONTH_CODES);
  const root = fc.stringMatching(/^[A-Z][A-Z0-9]{0,3}$/);

  // Within four years of now a 1-digit year is unambiguous; a CFD's name (HK33) is no contract.
  it('reads every year spelling of a futures contract as one contract', () => {
    fc.assert(
      fc.property(root, month, fc.integer({ min: 2021, max: 2029 }), (r, m, year) => {
        const full = parse(`${r}${m}${year}`);
        fc.pre(full.class === 'future' && !INDEX_CFD_NAMES.has(`${r}${m}${String(year).slice(2)}`));
        expect(parse(`${r}${m}${String(year).slice(2)}`).canonical).toBe(full.canonical);
        expect(parse(`${r}${m}${String(year).slice(3)}`).canonical).toBe(full.canonical);
        expect(parse(full.canonical).canonical).toBe(full.canonical);
      }),
      { numRuns: 2000 },
    );
  });

  it('reads every spelling of an option as one contract', () => {
    const date = fc.date({ min: new Date('2024-01-01'), max: new Date('2030-12-31'), noInvalidDate: true });
    fc.assert(
      fc.property(
        fc.stringMatching(/^[A-Z]{1,5}$/),
        date,
        fc.constantFrom('C', 'P'),
        fc.integer({ min: 1, max: 99_999_999 }),
        (r, d, right, thousandths) => {
          const yymmdd = d.toISOString().slice(2, 10).replaceAll('-', '');
          const occ = `${r.padEnd(6, ' ')}${yymmdd}${right}${String(thousandths).padStart(8, '0')}`;
          const strike = String(thousandths / 1000);
          for (const spelling of [
            occ,
            `${r}_${yymmdd}${right}${String(thousandths).padStart(8, '0')}`,
            `${r}${yymmdd}${right}${strike}`,
          ]) {
            expect(parse(spelling).canonical).toBe(occ);
          }
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('never throws anything but OrderValidationError, and a canonical form parses to itself', () => {
    const alphabet = fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ._-/!:^%{}()\'";$'.split(''));
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ maxLength: 80 }),
          fc.string({ unit: alphabet, maxLength: 24 }),
          fc.constantFrom(
            "constructor.constructor('x')()",
            'process.exit()',
            '__proto__',
            'toString',
            'hasOwnProperty',
          ),
        ),
        (text) => {
          try {
            const parsed = parse(text);
            expect(parse(parsed.canonical).canonical).toBe(parsed.canonical);
          } catch (error) {
            expect(error).toBeInstanceOf(OrderValidationError);
          }
        },
      ),
      { numRuns: 5000 },
    );
  });
});
