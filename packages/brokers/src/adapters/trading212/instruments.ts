// Signal symbols to Trading 212 instrument ids, from GET /api/v0/equity/metadata/instruments:
//   [{"ticker":"AAPL_US_EQ","shortName":"AAPL","type":"STOCK","currencyCode":"USD",...},
//    {"ticker":"VODl_EQ","shortName":"VOD","type":"STOCK","currencyCode":"GBX",...}]
// The list is large and limited to 1 request in 50 s, so it is kept per connection for a while.
import { BrokerError } from '../../core/errors.ts';
import type { HttpClient } from '../../core/http.ts';
import { listOf, stringField } from '../../core/json-read.ts';
import { TRADING212_TITLE } from './descriptor.ts';

export interface Instrument {
  ticker: string;
  shortName: string;
  type: string;
}

/** Trading 212 refreshes the list every 10 minutes; new listings are rare. */
const TTL_MS = 30 * 60_000;

function readInstruments(body: unknown): Instrument[] {
  return listOf(body).flatMap((item) => {
    const ticker = stringField(item, 'ticker');
    if (!ticker) return [];
    return [{ ticker, shortName: stringField(item, 'shortName') ?? '', type: stringField(item, 'type') ?? '' }];
  });
}

/**
 * The instrument for a symbol: its own id (any case: signals arrive upper-cased), else the US
 * listing `<SYMBOL>_US_EQ`, else the one stock or ETF with that short name.
 */
export function resolveTicker(instruments: readonly Instrument[], symbol: string): string {
  const wanted = symbol.trim().toUpperCase();
  const byId = instruments.find((item) => item.ticker.toUpperCase() === wanted);
  if (byId) return byId.ticker;
  const us = instruments.find((item) => item.ticker.toUpperCase() === `${wanted}_US_EQ`);
  if (us) return us.ticker;
  const named = instruments.filter(
    (item) => item.shortName.toUpperCase() === wanted && (item.type === 'STOCK' || item.type === 'ETF'),
  );
  const [only] = named;
  if (only && named.length === 1) return only.ticker;
  if (named.length > 1) {
    const choices = named.map((item) => item.ticker).join(', ');
    throw new BrokerError('InvalidOrder', TRADING212_TITLE, `${wanted} is listed several times; use one of ${choices}`);
  }
  throw new BrokerError('InvalidOrder', TRADING212_TITLE, `${wanted} is not traded at Trading 212`);
}

export interface InstrumentCache {
  ticker(key: string, client: HttpClient, symbol: string, now: number): Promise<string>;
}

export function createInstrumentCache(): InstrumentCache {
  const lists = new Map<string, { loadedAt: number; list: Promise<Instrument[]> }>();
  return {
    async ticker(key, client, symbol, now) {
      let entry = lists.get(key);
      if (!entry || now - entry.loadedAt > TTL_MS) {
        const list = client
          .request({ path: '/api/v0/equity/metadata/instruments' })
          .then(({ body }) => readInstruments(body));
        entry = { loadedAt: now, list };
        lists.set(key, entry);
        // A failed load (rate limit, network) is not kept: the next order tries again.
        list.catch(() => {
          if (lists.get(key) === entry) lists.delete(key);
        });
      }
      return resolveTicker(await entry.list, symbol);
    },
  };
}
