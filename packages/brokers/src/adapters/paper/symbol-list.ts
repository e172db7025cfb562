// The symbols the paper broker trades: symbols.txt beside this file, plus a self-hoster's own
// file of the same format (PAPER_SYMBOLS_FILE). See symbols.txt for the format.
import { readFileSync } from 'node:fs';
import { parseSymbol } from '@router/orders';

export type ListSection = 'stock' | 'etf' | 'crypto' | 'forex' | 'future' | 'cfd';
const SECTIONS: readonly ListSection[] = ['stock', 'etf', 'crypto', 'forex', 'future', 'cfd'];
const KEYS = new Set(['multiplier', 'tick', 'months', 'margin']);
const MONTH_CODES = /^[FGHJKMNQUVXZ]+$/;
const ROOT = /^[A-Z0-9]{1,5}$/;
const CFD = /^[A-Z][A-Z0-9]{1,9}$/;

export interface ListedSymbol {
  section: ListSection;
  /** Canonical spelling (EUR/USD, BRK.B) or, for futures, the root (ES). */
  symbol: string;
  /** The simulated feed's level. */
  price: number;
  multiplier?: number;
  tick?: number;
  /** Futures: the month codes listed (all when absent). */
  months?: string;
  margin?: number;
}

/** Listed symbols by section, then by symbol. */
export type SymbolList = ReadonlyMap<ListSection, ReadonlyMap<string, ListedSymbol>>;

export class SymbolListError extends Error {
  override readonly name = 'SymbolListError';
}

/** Parses the format of symbols.txt; throws a SymbolListError naming the source and line. */
export function parseSymbolList(text: string, source: string): ListedSymbol[] {
  const listed: ListedSymbol[] = [];
  let section: ListSection | undefined;
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.replace(/#.*/, '').trim();
    if (!line) return;
    const fail = (why: string) => new SymbolListError(`${source} line ${index + 1}: ${why}`);
    const header = /^\[(\w+)\]$/.exec(line);
    if (header) {
      section = SECTIONS.find((name) => name === header[1]?.toLowerCase());
      if (!section) throw fail(`unknown section [${header[1]}] (use ${SECTIONS.map((s) => `[${s}]`).join(' ')})`);
      return;
    }
    if (!section) throw fail('a symbol before any [section]');
    const [symbolText = '', priceText = '', ...options] = line.split(/\s+/);
    const price = Number(priceText);
    if (!(price > 0 && Number.isFinite(price))) throw fail(`price "${priceText}" must be a positive number`);
    const entry: ListedSymbol = { section, symbol: canonical(section, symbolText.toUpperCase(), fail), price };
    for (const option of options) {
      const [key = '', value = ''] = option.split('=');
      if (!KEYS.has(key)) throw fail(`unknown option "${option}" (use ${[...KEYS].map((k) => `${k}=`).join(', ')})`);
      if (key === 'months') {
        if (!MONTH_CODES.test(value)) throw fail(`months=${value} must be month codes such as HMUZ`);
        entry.months = value;
        continue;
      }
      const number = Number(value);
      const valid = key === 'margin' ? number > 0 && number <= 1 : number > 0 && Number.isFinite(number);
      if (!valid) throw fail(`${key}=${value} must be ${key === 'margin' ? 'a fraction in (0, 1]' : 'positive'}`);
      entry[key as 'multiplier' | 'tick' | 'margin'] = number;
    }
    if (section === 'future' && (entry.multiplier === undefined || entry.tick === undefined)) {
      throw fail('a future root needs multiplier= and tick=');
    }
    listed.push(entry);
  });
  return listed;
}

function canonical(section: ListSection, symbol: string, fail: (why: string) => Error): string {
  if (section === 'future') {
    if (!ROOT.test(symbol)) throw fail(`"${symbol}" must be a root of 1 to 5 letters or digits`);
    return symbol;
  }
  if (section === 'cfd') {
    if (!CFD.test(symbol)) throw fail(`"${symbol}" must be 2 to 10 letters or digits`);
    return symbol;
  }
  let parsed: ReturnType<typeof parseSymbol>;
  try {
    parsed = parseSymbol(symbol);
  } catch (error) {
    throw fail(error instanceof Error ? error.message : String(error));
  }
  const expected = section === 'etf' ? 'stock' : section;
  const fits = expected === 'stock' ? parsed.parts.kind === 'ticker' : parsed.class === expected;
  if (!fits || parsed.exchange) throw fail(`"${symbol}" is not a ${expected} symbol (read as ${parsed.class})`);
  return parsed.canonical;
}

/** Builds the lookup; later entries replace earlier ones of the same section and symbol. */
export function symbolListOf(entries: readonly ListedSymbol[]): SymbolList {
  const list = new Map<ListSection, Map<string, ListedSymbol>>(SECTIONS.map((section) => [section, new Map()]));
  for (const entry of entries) {
    // A ticker is a stock or an ETF, not both: the later line decides.
    if (entry.section === 'stock') list.get('etf')?.delete(entry.symbol);
    if (entry.section === 'etf') list.get('stock')?.delete(entry.symbol);
    list.get(entry.section)?.set(entry.symbol, entry);
  }
  return list;
}

let builtIn: ListedSymbol[] | undefined;

/** The list shipped with the app. */
export function builtInSymbols(): ListedSymbol[] {
  builtIn ??= parseSymbolList(readFileSync(new URL('./symbols.txt', import.meta.url), 'utf8'), 'symbols.txt');
  return builtIn;
}
