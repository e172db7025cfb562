// The fake's instrument universe and Saxo's reference routes (WIRE.md §4): instrument search by
// keyword and asset type, and option spaces of an option root. The Uics of the published
// examples are here (211 stock, 112809 stock, 21/16/31 FX, 17157415 future, 11221488 index
// option); their names where the examples give none, and every price, are the fake's own.
import { exampleContractMonth, exampleOptionExpiry, FUTURE_MONTH_CODES } from '@router/orders';
import type { FastifyInstance } from 'fastify';

export interface FakeInstrument {
  Identifier: number;
  AssetType: string;
  Symbol: string;
  Description: string;
  ExchangeId: string;
  CurrencyCode: string;
  PrimaryListing?: number;
  price: number;
}

interface FakeOption {
  Uic: number;
  root: string;
  expiry: string;
  PutCall: 'Call' | 'Put';
  StrikePrice: number;
}

/** Listings outside the US trade in their exchange's currency. */
const CURRENCIES: Record<string, string> = { XETR: 'EUR', CSE: 'DKK' };
const stock = (Identifier: number, symbol: string, ExchangeId: string, price: number, primary = Identifier) => ({
  Identifier,
  AssetType: 'Stock',
  Symbol: symbol,
  Description: symbol.split(':')[0] ?? symbol,
  ExchangeId,
  CurrencyCode: CURRENCIES[ExchangeId] ?? 'USD',
  PrimaryListing: primary,
  price,
});
const fx = (Identifier: number, symbol: string, price: number) => ({
  Identifier,
  AssetType: 'FxSpot',
  Symbol: symbol,
  Description: `${symbol.slice(0, 3)}/${symbol.slice(3)}`,
  ExchangeId: 'SBFX',
  CurrencyCode: symbol.slice(3),
  price,
});
const future = (Identifier: number, symbol: string, ExchangeId: string, price: number) => ({
  Identifier,
  AssetType: 'ContractFutures',
  Symbol: symbol,
  Description: symbol,
  ExchangeId,
  CurrencyCode: 'USD',
  price,
});
const root = (Identifier: number, symbol: string, AssetType: string) => ({
  Identifier,
  AssetType,
  Symbol: symbol,
  Description: `${symbol} options`,
  ExchangeId: 'CBOE',
  CurrencyCode: 'USD',
  price: 0,
});

export const INSTRUMENTS: FakeInstrument[] = [
  stock(211, 'AAPL:xnas', 'NASDAQ', 175),
  stock(261, 'MSFT:xnas', 'NASDAQ', 410),
  stock(112809, 'NOVOb:xcse', 'CSE', 700),
  stock(9001, 'SAP:xetr', 'XETR', 200),
  stock(9002, 'SAP:xnys', 'NYSE', 210),
  { ...stock(36590, 'SPY:arcx', 'ARCA', 560), AssetType: 'Etf' },
  // Between the two legs of the published OCO (1.20555 limit, 1.2177 stop), as when it was recorded.
  fx(21, 'EURUSD', 1.21),
  fx(16, 'EURDKK', 7.46),
  fx(31, 'GBPUSD', 1.27),
  future(5001, 'ESZ6:xcme', 'CME', 5500),
  future(5002, 'ESH7:xcme', 'CME', 5550),
  future(17157415, 'FDAXZ6:xeur', 'EUREX', 10492.5),
  root(30001, 'AAPL:xcbf', 'StockOption'),
  root(30002, 'SPX:xcbf', 'StockIndexOption'),
];

export const OPTIONS: FakeOption[] = [
  { Uic: 40001, root: 'AAPL', expiry: '2026-12-18', PutCall: 'Call', StrikePrice: 200 },
  { Uic: 40002, root: 'AAPL', expiry: '2026-12-18', PutCall: 'Put', StrikePrice: 200 },
  { Uic: 40003, root: 'AAPL', expiry: '2026-12-18', PutCall: 'Call', StrikePrice: 210 },
  { Uic: 11221488, root: 'SPX', expiry: '2026-12-18', PutCall: 'Call', StrikePrice: 6000 },
];

// Listed too: the ES contract and the AAPL expiry the documentation's examples move to today
// (currentExample), so a signal sent through the server, which reads the real clock, names a
// contract still trading whatever the day the tests run.
const today = Date.now();
const current = exampleContractMonth(today);
const currentYear = String(current.year);
export const CURRENT_ES = `ES${FUTURE_MONTH_CODES[current.month - 1]}${currentYear.slice(-2)}:xcme`;
export const CURRENT_EXPIRY = exampleOptionExpiry(today).toISOString().slice(0, 10);
const listed = (symbol: string) => INSTRUMENTS.some((item) => item.Symbol === symbol);
if (!listed(CURRENT_ES) && !listed(CURRENT_ES.replace(`${currentYear.slice(-2)}:`, `${currentYear.slice(-1)}:`))) {
  INSTRUMENTS.push(future(5003, CURRENT_ES, 'CME', 5500));
}
if (!OPTIONS.some((item) => item.root === 'AAPL' && item.expiry === CURRENT_EXPIRY)) {
  OPTIONS.push({ Uic: 40004, root: 'AAPL', expiry: CURRENT_EXPIRY, PutCall: 'Call', StrikePrice: 200 });
}

const OPTION_PRICE = 2.5;

/** An instrument by Uic and AssetType (an option contract takes its root's asset type). */
export function instrumentOf(uic: unknown, assetType: unknown): FakeInstrument | undefined {
  const found = INSTRUMENTS.find((item) => item.Identifier === uic && item.AssetType === assetType);
  if (found && !found.AssetType.endsWith('Option')) return found;
  const option = OPTIONS.find((item) => item.Uic === uic);
  const owner =
    option &&
    INSTRUMENTS.find((item) => item.Symbol.startsWith(`${option.root}:`) && item.AssetType.endsWith('Option'));
  if (!option || !owner || owner.AssetType !== assetType) return undefined;
  const symbol = `${option.root} ${option.expiry} ${option.PutCall} ${option.StrikePrice}`;
  return { ...owner, Identifier: option.Uic, Symbol: symbol, Description: symbol, price: OPTION_PRICE };
}

export function registerReferenceRoutes(app: FastifyInstance, prefix: string): void {
  app.get(`${prefix}/ref/v1/instruments`, async (request) => {
    const query = request.query as Record<string, string | undefined>;
    const keywords = (query.Keywords ?? '').toUpperCase();
    const types = (query.AssetTypes ?? '').split(',').filter(Boolean);
    const Data = INSTRUMENTS.filter(
      (item) =>
        (types.length === 0 || types.includes(item.AssetType)) &&
        (item.Symbol.toUpperCase().startsWith(keywords) || item.Description.toUpperCase().includes(keywords)),
    ).map(({ price: _price, ...item }) => ({ ...item, SummaryType: 'Instrument', TradableAs: [item.AssetType] }));
    return { Data };
  });

  app.get(`${prefix}/ref/v1/instruments/contractoptionspaces/:rootId`, async (request, reply) => {
    const rootId = Number((request.params as { rootId: string }).rootId);
    const owner = INSTRUMENTS.find((item) => item.Identifier === rootId && item.AssetType.endsWith('Option'));
    if (!owner) return reply.code(404).send({ ErrorCode: 'NotFound', Message: 'Option root not found' });
    const name = owner.Symbol.split(':')[0];
    const wanted = ((request.query as { ExpiryDates?: string }).ExpiryDates ?? '').split(',').filter(Boolean);
    const series = OPTIONS.filter(
      (item) => item.root === name && (wanted.length === 0 || wanted.includes(item.expiry)),
    );
    const expiries = [...new Set(series.map((item) => item.expiry))];
    return {
      AssetType: owner.AssetType,
      OptionRootId: rootId,
      OptionSpace: expiries.map((expiry) => ({
        Expiry: expiry,
        DisplayExpiry: expiry,
        SpecificOptions: series
          .filter((item) => item.expiry === expiry)
          .map(({ Uic, PutCall, StrikePrice }) => ({ Uic, PutCall, StrikePrice, TradingStatus: 'Tradable' })),
      })),
    };
  });
}
