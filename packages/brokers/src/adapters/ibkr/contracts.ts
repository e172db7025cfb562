// Symbols to IBKR contract ids (conid), the only instrument identifier an order takes (WIRE.md
// §4). Conids are permanent, so each symbol is asked once and remembered (per base URL):
//   stock     GET /trsrv/stocks?symbols=AAPL            {"AAPL":[{"assetClass":"STK","contracts":[{"conid":265598,"isUS":true}]}]}
//   forex     GET /iserver/currency/pairs?currency=EUR  {"EUR":[{"symbol":"EUR.USD","conid":12087792}]}
//   cfd, bond, warrant   GET /iserver/secdef/search?symbol=…  a result's section of that type
//   option, future       contracts.ts' neighbour derivatives.ts
//   "#265598"  any class, by its conid
import { type OrderClass, parseSymbol, writtenSymbol } from '@router/orders';
import type { BrokerContext, BrokerSession } from '../../core/broker.ts';
import { asRecord, listOf, stringField } from '../../core/json-read.ts';
import type { IbkrApi } from './api.ts';
import { type FutureLists, resolveFuture, resolveOption, type SecDefCall } from './derivatives.ts';
import { conidOf, type Instrument, notFound, type SecType } from './instrument.ts';

const SEC_TYPES: Partial<Record<OrderClass, SecType>> = {
  stock: 'STK',
  option: 'OPT',
  future: 'FUT',
  forex: 'CASH',
  cfd: 'CFD',
  bond: 'BOND',
  warrant: 'WAR',
};

/** IBKR's index CFDs under the names traders use (IBKR Campus: IBUS500, IBDE40, …). */
const INDEX_CFDS: Readonly<Record<string, string>> = {
  US500: 'IBUS500',
  SPX500: 'IBUS500',
  US30: 'IBUS30',
  US100: 'IBUST100',
  NAS100: 'IBUST100',
  DE40: 'IBDE40',
  GER40: 'IBDE40',
  UK100: 'IBGB100',
  EU50: 'IBEU50',
  FR40: 'IBFR40',
  ES35: 'IBES35',
  NL25: 'IBNL25',
  CH20: 'IBCH20',
  JP225: 'IBJP225',
  HK50: 'IBHK50',
  AU200: 'IBAU200',
};

const CACHE_LIMIT = 10_000;
const MEMOIZED = new Set(['/iserver/secdef/search', '/iserver/secdef/strikes']);
const ANSWER_TTL_MS = 60 * 60_000;

function remember<T>(map: Map<string, T>, key: string, value: T): void {
  if (map.size >= CACHE_LIMIT) map.delete(map.keys().next().value ?? '');
  map.set(key, value);
}
/** IBKR writes share classes with a space: BRK.B is "BRK B". */
const ibkrTicker = (ticker: string) => ticker.replace(/\./g, ' ');

async function stock(get: SecDefCall, ticker: string): Promise<Instrument> {
  const symbol = ibkrTicker(ticker);
  const instruments = listOf(asRecord(await get('/trsrv/stocks', { symbols: symbol }))?.[symbol]);
  const equity = instruments.find((item) => item.assetClass === 'STK') ?? instruments[0];
  const contracts = listOf(equity?.contracts);
  const contract = contracts.find((item) => item.isUS === true) ?? contracts[0];
  const conid = conidOf(contract?.conid);
  if (conid === undefined) throw notFound(`no stock ${ticker} found`);
  return { conid, secType: 'STK', ...(contract?.isUS === true ? { currency: 'USD' } : {}) };
}

async function forex(get: SecDefCall, base: string, quote: string): Promise<Instrument> {
  const pairs = async (currency: string) =>
    listOf(asRecord(await get('/iserver/currency/pairs', { currency }))?.[currency]);
  const found = (await pairs(base)).find((pair) => pair.symbol === `${base}.${quote}`);
  const conid = conidOf(found?.conid);
  if (conid !== undefined) return { conid, secType: 'CASH', currency: quote };
  // IBKR quotes each pair one way round: a reversed pair would flip what buy means.
  const reversed = (await pairs(quote)).some((pair) => pair.symbol === `${quote}.${base}`);
  throw notFound(`no forex pair ${base}.${quote}${reversed ? `; IBKR trades it as ${quote}/${base}` : ''}`);
}

/** A search result's contract of `secType`: a section carrying its own conid, or a result that is only that. */
export function searchedConid(results: unknown, secType: SecType): number | undefined {
  for (const result of listOf(results)) {
    const sections = listOf(result.sections);
    const section = sections.find((item) => item.secType === secType && stringField(item, 'conid'));
    const only = sections.length > 0 && sections.every((item) => item.secType === secType) && !result.issuers;
    const conid = conidOf(section ? section.conid : only ? result.conid : undefined);
    if (conid !== undefined) return conid;
  }
  return undefined;
}

async function searched(get: SecDefCall, symbol: string, secType: SecType, what: string): Promise<Instrument> {
  const query = { symbol, ...(secType === 'BOND' ? { secType: 'BOND' } : {}) };
  const conid = searchedConid(await get('/iserver/secdef/search', query), secType);
  if (conid === undefined) throw notFound(`no ${what} ${symbol} found; give its IBKR contract id as #conid`);
  return { conid, secType };
}

/** A CFD by the name the order carries: read again, HK50 would be a contract month (HK2050). */
function cfdSymbol(symbol: string): string {
  const parsed = parseSymbol(symbol);
  if (parsed.parts.kind === 'pair') return `${parsed.parts.base}.${parsed.parts.quote}`;
  const name = writtenSymbol(symbol);
  return INDEX_CFDS[name] ?? ibkrTicker(name);
}

export type { Instrument, SecType };

export interface Contracts {
  resolve(ctx: BrokerContext, session: BrokerSession, symbol: string, orderClass: OrderClass): Promise<Instrument>;
}

export function createContracts(api: IbkrApi, now: () => number): Contracts {
  const cache = new Map<string, Instrument>();
  const answers = new Map<string, { at: number; body: unknown }>();
  const futureLists: FutureLists = new Map();

  async function lookUp(get: SecDefCall, symbol: string, orderClass: OrderClass, baseUrl: string) {
    const parsed = parseSymbol(symbol);
    const { parts } = parsed;
    if (orderClass === 'option' && parts.kind === 'option') return resolveOption(get, parts);
    if (orderClass === 'future') return resolveFuture(get, parts, { now: now(), lists: futureLists, baseUrl });
    if (orderClass === 'forex' && parts.kind === 'pair') return forex(get, parts.base, parts.quote);
    if (orderClass === 'stock') return stock(get, parsed.canonical);
    if (orderClass === 'cfd') return searched(get, cfdSymbol(symbol), 'CFD', 'CFD on');
    if (orderClass === 'bond') return searched(get, parsed.canonical, 'BOND', 'bond');
    if (orderClass === 'warrant') return searched(get, ibkrTicker(parsed.canonical), 'WAR', 'warrant');
    throw notFound(`${orderClass} ${symbol} is not traded here`);
  }

  return {
    async resolve(ctx, session, symbol, orderClass) {
      const byId = /^#(\d{1,12})$/.exec(symbol.trim());
      const secType = SEC_TYPES[orderClass];
      if (byId && secType) return { conid: Number(byId[1]), secType };
      // A continuous future rolls: its list is cached by derivatives.ts, not its choice here.
      const key = `${ctx.baseUrl}|${orderClass}|${symbol}`;
      const known = cache.get(key);
      if (known) return known;
      const get: SecDefCall = async (path, query) => {
        // An option chain's underlying and strikes serve every leg of a combo: asked once an hour.
        const memo = MEMOIZED.has(path) ? `${ctx.baseUrl}${path}?${new URLSearchParams(query)}` : undefined;
        const known = memo ? answers.get(memo) : undefined;
        if (known && now() - known.at < ANSWER_TTL_MS) return known.body;
        const { body } = await api.call(ctx, session, { path, query });
        if (memo) remember(answers, memo, { at: now(), body });
        return body;
      };
      const instrument = await lookUp(get, symbol, orderClass, ctx.baseUrl);
      if (!/!$/.test(symbol)) remember(cache, key, instrument);
      return instrument;
    },
  };
}
