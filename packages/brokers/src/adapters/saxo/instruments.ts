// Saxo trades instruments, not symbols (WIRE.md §4): a signal's symbol is resolved to a Uic and
// AssetType once, then kept (instruments do not change their ids).
//   GET /ref/v1/instruments?Keywords=AAPL&AssetTypes=Stock,Etf
//     → {"Data":[{"Identifier":211,"AssetType":"Stock","Symbol":"AAPL:xnas","ExchangeId":"NASDAQ","PrimaryListing":211,…}]}
//   options: the root (AssetTypes=StockOption,StockIndexOption), then its option space
//   GET /ref/v1/instruments/contractoptionspaces/{OptionRootId}?OptionSpaceSegment=SpecificDates&ExpiryDates=2026-12-18
//     → {"AssetType":"StockOption","OptionSpace":[{"Expiry":"2026-12-18","SpecificOptions":[{"Uic":…,"StrikePrice":200,"PutCall":"Call"}]}]}
// A ticker listed on several exchanges resolves to its primary listing, or to extra.exchange.
import { futureTickOf, type Order, type OrderClass, parseSymbol } from '@router/orders';
import type { BrokerContext, BrokerSession } from '../../core/broker.ts';
import { BrokerError } from '../../core/errors.ts';
import { asRecord, decimalField, type JsonRecord, listOf, stringField } from '../../core/json-read.ts';
import type { SaxoApi } from './api.ts';
import { SAXO_TITLE } from './descriptor.ts';

export interface SaxoInstrument {
  uic: number;
  assetType: string;
  /** Saxo's symbol ("AAPL:xnas", "EURUSD"). */
  symbol: string;
  /** The currency it trades in (an option: its root's), as Saxo lists it; USD prices US ticks. */
  currency?: string;
  /** A future's tick, where its root's is known (the order language's futureTickOf). */
  tick?: number;
}

/** Instruments kept at most (the oldest go first). */
const CACHE_SIZE = 2_000;
const ASSET_TYPES: Partial<Record<OrderClass, string>> = {
  stock: 'Stock,Etf',
  forex: 'FxSpot',
  future: 'ContractFutures',
  option: 'StockOption,StockIndexOption',
};

const invalid = (message: string) => new BrokerError('InvalidOrder', SAXO_TITLE, message);
/** "AAPL:xnas" → "AAPL"; "BRKb:xnys" and "BRK.B" compare alike. */
const tickerOf = (symbol: string) => (symbol.split(':')[0] ?? '').replace(/[./ ]/g, '').toUpperCase();
/** The listing's currency, when Saxo names one. */
const currencyOf = (record: JsonRecord) => {
  const currency = stringField(record, 'CurrencyCode');
  return currency ? { currency } : {};
};

interface Candidate {
  record: JsonRecord;
  uic: number;
  assetType: string;
  symbol: string;
}

function candidates(body: unknown, wanted: readonly string[]): Candidate[] {
  return listOf(asRecord(body)?.Data).flatMap((record) => {
    const uic = decimalField(record, 'Identifier');
    const symbol = stringField(record, 'Symbol') ?? '';
    const assetType = stringField(record, 'AssetType');
    return uic !== undefined && assetType && wanted.includes(tickerOf(symbol))
      ? [{ record, uic, assetType, symbol }]
      : [];
  });
}

/** One listing: the one on `exchange`, else the primary listing all the others point to. */
function oneListing(found: Candidate[], name: string, exchange: string | undefined): Candidate {
  const onExchange = exchange
    ? found.filter((item) =>
        [stringField(item.record, 'ExchangeId'), item.symbol.split(':')[1]].some(
          (id) => id?.toUpperCase() === exchange.toUpperCase(),
        ),
      )
    : found;
  const [first] = onExchange;
  if (!first) throw invalid(`no instrument ${name}${exchange ? ` on ${exchange}` : ''} at Saxo`);
  if (onExchange.length === 1) return first;
  const primary = onExchange.filter((item) => decimalField(item.record, 'PrimaryListing') === item.uic);
  const [main] = primary;
  if (
    main &&
    primary.length === 1 &&
    onExchange.every((item) => decimalField(item.record, 'PrimaryListing') === main.uic)
  )
    return main;
  const where = onExchange.map((item) => stringField(item.record, 'ExchangeId') ?? item.symbol).join(', ');
  throw invalid(`${name} is listed on several exchanges (${where}); give extra.exchange`);
}

/**
 * What Saxo can never list for a signal, refused before any search (Broker.checkOrder stops
 * here); the asset types to search otherwise.
 */
export function checkInstrument(order: Pick<Order, 'symbol' | 'class'>): string {
  const assetTypes = ASSET_TYPES[order.class];
  if (!assetTypes) throw invalid(`${order.class} is not traded here`);
  const { parts } = parseSymbol(order.symbol);
  if (order.class === 'option') {
    if (parts.kind !== 'option') throw invalid(`${order.symbol} is not an option symbol`);
  } else if (parts.kind === 'continuous_future')
    throw invalid(`${order.symbol} is a continuous contract; give the contract month`);
  return assetTypes;
}

export function createInstruments(api: SaxoApi) {
  const cache = new Map<string, Promise<SaxoInstrument>>();

  async function search(ctx: BrokerContext, session: BrokerSession, keywords: string, assetTypes: string) {
    const { body } = await api.call(ctx, session, {
      path: '/ref/v1/instruments',
      query: { Keywords: keywords, AssetTypes: assetTypes, IncludeNonTradable: false },
    });
    return body;
  }

  async function option(ctx: BrokerContext, session: BrokerSession, symbol: string): Promise<SaxoInstrument> {
    const { parts } = parseSymbol(symbol);
    if (parts.kind !== 'option') throw invalid(`${symbol} is not an option symbol`);
    const roots = candidates(await search(ctx, session, parts.root, ASSET_TYPES.option ?? ''), [parts.root]);
    const root = oneListing(roots, `option root ${parts.root}`, undefined);
    const { body } = await api.call(ctx, session, {
      path: `/ref/v1/instruments/contractoptionspaces/${root.uic}`,
      query: { OptionSpaceSegment: 'SpecificDates', ExpiryDates: parts.expiry },
    });
    const space = listOf(asRecord(body)?.OptionSpace).find((item) =>
      stringField(item, 'Expiry')?.startsWith(parts.expiry),
    );
    const putCall = parts.right === 'C' ? 'Call' : 'Put';
    const specific = listOf(space?.SpecificOptions).find(
      (item) => stringField(item, 'PutCall') === putCall && decimalField(item, 'StrikePrice') === parts.strike,
    );
    const uic = decimalField(specific, 'Uic');
    if (uic === undefined) throw invalid(`no ${parts.root} ${parts.expiry} ${putCall} ${parts.strike} option at Saxo`);
    const assetType = stringField(body, 'AssetType') ?? root.assetType;
    return { uic, assetType, symbol: symbol.trim(), ...currencyOf(root.record) };
  }

  async function lookUp(ctx: BrokerContext, session: BrokerSession, order: Pick<Order, 'symbol' | 'class' | 'extra'>) {
    const assetTypes = checkInstrument(order);
    if (order.class === 'option') return option(ctx, session, order.symbol);
    const { parts } = parseSymbol(order.symbol);
    const exchange = order.extra?.exchange === undefined ? undefined : String(order.extra.exchange);
    let keywords = order.symbol;
    let wanted = [tickerOf(order.symbol)];
    if (parts.kind === 'pair') {
      keywords = `${parts.base}${parts.quote}`;
      wanted = [keywords];
    } else if (parts.kind === 'future') {
      // Saxo spells contracts with one or two year digits (ESZ6, ESZ26).
      keywords = parts.root;
      const year = String(parts.year);
      wanted = [1, 2].map((digits) => `${parts.root}${parts.monthCode}${year.slice(-digits)}`);
    }
    const found = candidates(await search(ctx, session, keywords, assetTypes), wanted);
    const { uic, assetType, symbol, record } = oneListing(found, order.symbol, exchange);
    const tick = parts.kind === 'future' ? futureTickOf(parts.root) : undefined;
    return { uic, assetType, symbol, ...currencyOf(record), ...(tick !== undefined ? { tick } : {}) };
  }

  return {
    /** The instrument a signal names; refused before anything is sent when Saxo has none. */
    resolve(ctx: BrokerContext, session: BrokerSession, order: Pick<Order, 'symbol' | 'class' | 'extra'>) {
      const key = [ctx.baseUrl, order.class, order.symbol, order.extra?.exchange ?? ''].join('|');
      const known = cache.get(key);
      if (known) return known;
      const found = lookUp(ctx, session, order);
      cache.set(key, found);
      found.catch(() => cache.delete(key));
      if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value ?? '');
      return found;
    },
  };
}

export type SaxoInstruments = ReturnType<typeof createInstruments>;
