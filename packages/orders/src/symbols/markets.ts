// Market names around a ticker. TradingView writes the exchange first, NASDAQ:AAPL; Bloomberg
// (AAPL:US, VOD:LN, 7203:JP, and its terminal's AAPL US Equity), Google Finance (AAPL:NASDAQ, VOD:LON)
// and Saxo (AAPL:xnas) write the market after it. Read TradingView's way, AAPL:US is the ticker US on an exchange named AAPL: another
// company's order at a broker that goes by the ticker. A market name after the colon, with no
// exchange known before it, is that other form.

/** TradingView's exchange prefixes: before the colon they are always the exchange. */
// biome-ignore format: grouped by region
const EXCHANGE_PREFIXES: ReadonlySet<string> = new Set([
  'NASDAQ', 'NYSE', 'AMEX', 'ARCA', 'NYSEARCA', 'BATS', 'CBOE', 'OTC', 'TSX', 'TSXV', 'CSE', 'NEO', 'BMV', 'BMFBOVESPA',
  'LSE', 'LSIN', 'XETR', 'FWB', 'SWB', 'EURONEXT', 'BME', 'MIL', 'SIX', 'OMXSTO', 'OMXCOP', 'OMXHEX', 'OSL', 'WSE',
  'BIST', 'MOEX', 'JSE', 'TADAWUL', 'TASE',
  'ASX', 'NZX', 'HKEX', 'TSE', 'SSE', 'SZSE', 'KRX', 'TWSE', 'SGX', 'IDX', 'SET', 'MYX', 'HOSE', 'NSE', 'BSE', 'NFO',
  'MCX', 'CDS', 'OSE',
  'CME', 'CME_MINI', 'CBOT', 'CBOT_MINI', 'NYMEX', 'COMEX', 'ICEUS', 'ICEEUR', 'EUREX',
  'BINANCE', 'BINANCEUS', 'COINBASE', 'KRAKEN', 'BITSTAMP', 'BYBIT', 'OKX', 'BITFINEX', 'BITMEX', 'KUCOIN', 'GEMINI',
  'BITGET', 'MEXC', 'GATEIO', 'DERIBIT', 'PHEMEX', 'CRYPTOCAP',
  'FX', 'FX_IDC', 'OANDA', 'FXCM', 'FOREXCOM', 'PEPPERSTONE', 'ICMARKETS', 'SAXO', 'CAPITALCOM', 'EIGHTCAP', 'TVC',
  'SP', 'DJ', 'INDEX',
]);

/** Markets as the other forms name them after the ticker: Bloomberg's codes, Google's and ISO MICs. */
// biome-ignore format: one source per line
const MARKET_SUFFIXES: ReadonlySet<string> = new Set([
  'US', 'UN', 'UW', 'UQ', 'UA', 'UP', 'LN', 'JP', 'JT', 'HK', 'CN', 'CT', 'GR', 'GY', 'FP', 'NA', 'IM', 'SM', 'SW', 'SE', 'SS', 'AU', 'AT', 'KS', 'TT', 'IN', 'IB', 'IS', 'NZ', 'BZ', 'MM', 'SJ', 'BB', 'DC', 'FH', 'NO', 'PL', 'AV', 'SP',
  'NYSEAMERICAN', 'LON', 'TYO', 'HKG', 'ETR', 'FRA', 'EPA', 'AMS', 'BIT', 'SWX', 'STO', 'CPH', 'HEL', 'BOM', 'SHA', 'SHE', 'TPE',
  'XNAS', 'XNYS', 'ARCX', 'XASE', 'XFRA', 'XLON', 'XPAR', 'XAMS', 'XMIL', 'XMAD', 'XSWX', 'XSTO', 'XCSE', 'XHEL', 'XOSL', 'XTSE', 'XASX', 'XHKG', 'XTKS', 'XSES', 'XKRX', 'XNSE', 'XBOM', 'XCME', 'XCBT', 'XNYM', 'XEUR', 'XCBF',
]);

/** TradingView's {{exchange}} marks delayed data with _DL or _DLY (NYMEX_DL:CL1!): the exchange is the same one. */
const DELAYED = /(?<=.)_DLY?$/;

/** An exchange prefix as TradingView writes it, upper-cased, without its delayed-data mark: NYMEX_DL → NYMEX. */
export function exchangeName(prefix: string): string {
  return prefix.toUpperCase().replace(DELAYED, '');
}

/**
 * Why `before:after` names its market after the ticker (AAPL:US, AAPL:NASDAQ, AAPL:xnas), else
 * undefined: what comes before is no exchange TradingView names, and what comes after is a market.
 */
export function marketAfterTicker(before: string, after: string): string | undefined {
  const exchange = exchangeName(before);
  const market = after.trim().toUpperCase();
  if (EXCHANGE_PREFIXES.has(exchange) || !(MARKET_SUFFIXES.has(market) || EXCHANGE_PREFIXES.has(market))) {
    return undefined;
  }
  return (
    `${before}:${after.trim()} names the market after the ticker, as Bloomberg, Google Finance and Saxo write it; ` +
    `read with the exchange first, as TradingView writes NASDAQ:AAPL, it would be the ticker ${market}: ` +
    `send ${exchange}, alone or with its exchange first`
  );
}

/** Bloomberg's market sectors, the "yellow keys" that end its terminal's names: AAPL US Equity, ESZ4 Index. */
const YELLOW_KEYS = /^(?:EQUITY|INDEX|CURNCY|COMDTY|CORP|GOVT|MTGE|MUNI|PFD|M-MKT)$/;
const BLOOMBERG_CODE = /^[A-Z]{2}$/;

/**
 * Why a spaced name (upper-cased) is Bloomberg's, not a ticker, else undefined: AAPL US Equity, VOD LN,
 * ESZ4 Index. A ticker sent so went on as "AAPL US EQUITY"; IBKR's share classes (BRK B) stay tickers.
 */
export function bloombergName(symbol: string): string | undefined {
  const [ticker = '', ...rest] = symbol.split(/\s+/);
  const last = rest.at(-1) ?? '';
  const market = rest[0] ?? '';
  const sector = YELLOW_KEYS.test(last);
  const coded = BLOOMBERG_CODE.test(market) && MARKET_SUFFIXES.has(market);
  if (!sector && !coded) return undefined;
  return `${symbol} is Bloomberg's name, not a ticker; send ${ticker} as the broker names it, or with its exchange first (NASDAQ:AAPL)`;
}
