// A hook's settings made ready for the hot path, once, when the hook is cached: address lists,
// symbol sets and maps, time-zone formatters. A hook without settings has no compiled rules at
// all, so its signals take no step of this module.
import { BlockList } from 'node:net';
import { exchangePrefix, parseSymbol, writtenSymbol } from '@router/orders';
import { exchangeName } from './exchange-name.ts';
import {
  addSource,
  type FanOutLeg,
  type HookRules,
  isSourcePreset,
  SOURCE_PRESETS,
  WEEKDAYS,
  type Weekday,
} from './settings.ts';

export interface CompiledWindow {
  days: ReadonlySet<Weekday>;
  /** Minutes since midnight, `to` excluded. */
  from: number;
  to: number;
  zone: Intl.DateTimeFormat;
}

export interface CompiledRules {
  settings: HookRules;
  maxLagMs?: number;
  sources?: BlockList;
  symbols?: ReadonlySet<string>;
  symbolMap?: ReadonlyMap<string, string>;
  maxQuantity?: number;
  maxNotional?: number;
  maxPosition?: number;
  perMinute?: number;
  perDay?: number;
  windows?: readonly CompiledWindow[];
  fanOut: readonly FanOutLeg[];
  /** The body must be read before normalization (time, symbol mapping). */
  readsBody: boolean;
}

const minutes = (hhmm: string): number => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** Settings already validated by parseHookRules (stored ones were); null when there are none. */
export function compileRules(settings: HookRules | null): CompiledRules | null {
  if (!settings) return null;
  const compiled: CompiledRules = { settings, fanOut: settings.fanOut ?? [], readsBody: false };
  if (settings.maxLagSeconds !== undefined) compiled.maxLagMs = settings.maxLagSeconds * 1000;
  if (settings.sourceAddresses?.length) {
    const list = new BlockList();
    for (const entry of settings.sourceAddresses) {
      for (const address of isSourcePreset(entry) ? SOURCE_PRESETS[entry] : [entry]) addSource(list, address);
    }
    compiled.sources = list;
  }
  // As written and as the order language spells the instrument (an order's symbol is canonical);
  // an entry with an exchange prefix (NASDAQ:AAPL) as EXCHANGE:symbol, allowing that exchange only.
  if (settings.symbols?.length) {
    compiled.symbols = new Set(
      settings.symbols.flatMap((s) => {
        const written = exchangePrefix(s);
        const prefix = written === undefined ? undefined : exchangeName(written);
        return [writtenSymbol(s), canonical(s)].map((name) => (prefix ? `${prefix}:${name}` : name));
      }),
    );
  }
  const map = Object.entries(settings.symbolMap ?? {});
  // Looked up as sent, then upper-cased (check.ts): upper-cased keys too, so `es1!` maps ES1!.
  if (map.length > 0)
    compiled.symbolMap = new Map([...map.map(([from, to]) => [from.toUpperCase(), to] as const), ...map]);
  compiled.maxQuantity = settings.maxQuantity;
  compiled.maxNotional = settings.maxNotional;
  compiled.maxPosition = settings.maxPosition;
  compiled.perMinute = settings.maxOrdersPerMinute;
  compiled.perDay = settings.maxOrdersPerDay;
  if (settings.tradingWindows?.length) {
    compiled.windows = settings.tradingWindows.map((w) => ({
      days: new Set(w.days),
      from: minutes(w.from),
      to: minutes(w.to),
      zone: new Intl.DateTimeFormat('en-US', {
        timeZone: w.timeZone,
        weekday: 'short',
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
      }),
    }));
  }
  compiled.readsBody = compiled.maxLagMs !== undefined || compiled.symbolMap !== undefined;
  return compiled;
}

/** The canonical spelling of a symbol (BTCUSD → BTC/USD), or the symbol upper-cased if none reads. */
function canonical(symbol: string): string {
  try {
    return parseSymbol(symbol).canonical;
  } catch {
    return symbol.toUpperCase();
  }
}

/** The weekday and minute of the day of `now` in a window's time zone. */
export function localTime(zone: Intl.DateTimeFormat, now: Date): { day: Weekday; minute: number } {
  let day: Weekday = 'sun';
  let hour = 0;
  let minute = 0;
  for (const part of zone.formatToParts(now)) {
    if (part.type === 'weekday')
      day = (WEEKDAYS.find((d) => part.value.toLowerCase().startsWith(d)) ?? 'sun') as Weekday;
    else if (part.type === 'hour') hour = Number(part.value);
    else if (part.type === 'minute') minute = Number(part.value);
  }
  return { day, minute: hour * 60 + minute };
}
