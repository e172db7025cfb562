// The symbols of the Questrade protocol fake: a few stocks (AAPL 8049 as in Questrade's samples)
// and an option chain per stock, three expiries from the fake's clock (third Fridays) with
// strikes around the quote, in Questrade's chain shape.
export interface FakeSymbol {
  symbol: string;
  symbolId: number;
  description: string;
  securityType: 'Stock' | 'Option';
  listingExchange: string;
  currency: 'USD' | 'CAD';
  quote: number;
  underlying?: { symbolId: number; expiry: string; right: 'C' | 'P'; strike: number; root: string };
}

const STOCKS: Array<Omit<FakeSymbol, 'securityType'>> = [
  { symbol: 'AAPL', symbolId: 8049, description: 'APPLE INC', listingExchange: 'NASDAQ', currency: 'USD', quote: 200 },
  {
    symbol: 'MSFT',
    symbolId: 27426,
    description: 'MICROSOFT CORP',
    listingExchange: 'NASDAQ',
    currency: 'USD',
    quote: 400,
  },
  {
    symbol: 'SPY',
    symbolId: 34987,
    description: 'SPDR S&P 500 ETF',
    listingExchange: 'ARCA',
    currency: 'USD',
    quote: 600,
  },
  {
    symbol: 'TD.TO',
    symbolId: 38738,
    description: 'TORONTO-DOMINION BANK',
    listingExchange: 'TSX',
    currency: 'CAD',
    quote: 80,
  },
];

function thirdFriday(year: number, month: number): string {
  const first = new Date(Date.UTC(year, month, 1));
  const day = 1 + ((5 - first.getUTCDay() + 7) % 7) + 14;
  return new Date(Date.UTC(year, month, day)).toISOString().slice(0, 10);
}

export function createSymbols(now: number) {
  const symbols: FakeSymbol[] = STOCKS.map((stock) => ({ ...stock, securityType: 'Stock' }));
  const date = new Date(now);
  const expiries = [1, 2, 13].map((ahead) => thirdFriday(date.getUTCFullYear(), date.getUTCMonth() + ahead));
  let nextId = 40_000_000;
  for (const stock of STOCKS) {
    for (const expiry of expiries) {
      for (let strike = stock.quote * 0.8; strike <= stock.quote * 1.2; strike += stock.quote / 40) {
        for (const right of ['C', 'P'] as const) {
          const [y, m, d] = expiry.split('-');
          symbols.push({
            symbol: `${stock.symbol}${d}${m}${y?.slice(2)}${right}${strike.toFixed(2)}`,
            symbolId: nextId++,
            description: `${stock.symbol} ${expiry} ${strike} ${right}`,
            securityType: 'Option',
            listingExchange: 'OPRA',
            currency: stock.currency,
            quote: 5,
            underlying: { symbolId: stock.symbolId, expiry, right, strike, root: stock.symbol },
          });
        }
      }
    }
  }

  /** GET /v1/symbols/{id}/options: the chain of one underlying. */
  function chainOf(underlyingId: number) {
    const options = symbols.filter((item) => item.underlying?.symbolId === underlyingId);
    const root = STOCKS.find((item) => item.symbolId === underlyingId)?.symbol ?? '';
    return [...new Set(options.map((item) => item.underlying?.expiry))].map((expiry) => {
      const strikes = [
        ...new Set(options.filter((o) => o.underlying?.expiry === expiry).map((o) => o.underlying?.strike)),
      ];
      const idOf = (strike: number | undefined, right: 'C' | 'P') =>
        options.find(
          (o) => o.underlying?.expiry === expiry && o.underlying?.strike === strike && o.underlying?.right === right,
        )?.symbolId;
      return {
        expiryDate: `${expiry}T00:00:00.000000-05:00`,
        description: `${root} options`,
        listingExchange: 'MX',
        optionExerciseType: 'American',
        chainPerRoot: [
          {
            root,
            chainPerStrikePrice: strikes.map((strike) => ({
              strikePrice: strike,
              callSymbolId: idOf(strike, 'C'),
              putSymbolId: idOf(strike, 'P'),
            })),
            multiplier: 100,
          },
        ],
      };
    });
  }

  return {
    symbols,
    chainOf,
    byId: (id: number) => symbols.find((item) => item.symbolId === id),
    search: (prefix: string) =>
      symbols
        .filter((item) => item.securityType === 'Stock' && item.symbol.startsWith(prefix.toUpperCase()))
        .map(({ quote: _quote, underlying: _underlying, ...rest }) => ({
          ...rest,
          isTradable: true,
          isQuotable: true,
        })),
  };
}

export type FakeSymbols = ReturnType<typeof createSymbols>;
