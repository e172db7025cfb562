// Symbols are numbered by each broker itself (WIRE.md §3): our ticker is looked up by name in the
// account's light symbol list (ProtoOASymbolsListReq), then its trading details are read once
// (ProtoOASymbolByIdReq: digits, volume limits in hundredths of a unit). Both are kept per
// account for an hour, so an order costs no extra round trip after the first.
//   {"symbolId": 1, "symbolName": "EUR/USD", "enabled": true} → "EURUSD", "EUR/USD", "eur_usd" all find it
import { BrokerError } from '../../core/errors.ts';
import { decimalField, listOf, stringField } from '../../core/json-read.ts';
import { type AccountClient, expectAnswer } from './client.ts';
import { CTRADER_TITLE } from './descriptor.ts';

export const SYMBOL_CACHE_MS = 60 * 60_000;

export interface SymbolDetails {
  symbolId: number;
  name: string;
  digits: number;
  /** In hundredths of a unit, as cTrader counts volume. */
  minVolume?: number;
  stepVolume?: number;
  maxVolume?: number;
}

interface AccountSymbols {
  loadedAt: number;
  byName: Map<string, { symbolId: number; name: string }>;
  names: Map<number, string>;
  details: Map<number, SymbolDetails>;
}

/** 'EUR/USD', 'eur_usd', 'EUR-USD' → 'EURUSD'. */
export const symbolKey = (name: string) => name.toUpperCase().replace(/[\s/_-]+/g, '');

export interface SymbolCache {
  /** The symbol named `name` in this account, with its trading details; unknown names are refused. */
  resolve(client: AccountClient, name: string, now: number): Promise<SymbolDetails>;
  /** The name of a symbol id (positions, orders), or the id itself when the list lacks it. */
  nameOf(client: AccountClient, symbolId: number, now: number): Promise<string>;
}

export function createSymbolCache(): SymbolCache {
  const accounts = new Map<string, AccountSymbols>();
  const key = (client: AccountClient) => `${client.live ? 'live' : 'demo'} ${client.ctid}`;

  async function symbolsOf(client: AccountClient, now: number): Promise<AccountSymbols> {
    const known = accounts.get(key(client));
    if (known && now - known.loadedAt < SYMBOL_CACHE_MS) return known;
    const answer = await client.call('ProtoOASymbolsListReq', {});
    const listed = listOf(expectAnswer(answer, 'ProtoOASymbolsListRes').symbol);
    const fresh: AccountSymbols = { loadedAt: now, byName: new Map(), names: new Map(), details: new Map() };
    for (const item of listed) {
      const symbolId = decimalField(item, 'symbolId');
      const name = stringField(item, 'symbolName');
      if (symbolId === undefined || !name) continue;
      fresh.names.set(symbolId, name);
      if (item.enabled !== false) fresh.byName.set(symbolKey(name), { symbolId, name });
    }
    accounts.set(key(client), fresh);
    return fresh;
  }

  return {
    async resolve(client, name, now) {
      const symbols = await symbolsOf(client, now);
      const found = symbols.byName.get(symbolKey(name));
      if (!found) {
        throw new BrokerError('InvalidOrder', CTRADER_TITLE, `symbol ${name} is not offered on this account`);
      }
      const cached = symbols.details.get(found.symbolId);
      if (cached) return cached;
      const answer = await client.call('ProtoOASymbolByIdReq', { symbolId: [found.symbolId] });
      const [symbol] = listOf(expectAnswer(answer, 'ProtoOASymbolByIdRes').symbol);
      const digits = decimalField(symbol, 'digits');
      if (!symbol || digits === undefined) {
        throw new BrokerError('InvalidOrder', CTRADER_TITLE, `symbol ${name} has no trading details`);
      }
      const limit = (field: string) => {
        const value = decimalField(symbol, field);
        return value !== undefined && value > 0 ? { [field]: value } : {};
      };
      const details: SymbolDetails = {
        symbolId: found.symbolId,
        name: found.name,
        digits,
        ...limit('minVolume'),
        ...limit('stepVolume'),
        ...limit('maxVolume'),
      };
      symbols.details.set(found.symbolId, details);
      return details;
    },
    async nameOf(client, symbolId, now) {
      return (await symbolsOf(client, now)).names.get(symbolId) ?? String(symbolId);
    },
  };
}
