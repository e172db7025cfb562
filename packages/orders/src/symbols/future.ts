// Futures symbols:
//   "ES1!"  "NQ2!"  "6E1!"  "BANKNIFTY1!"       continuous: front (1) or next (2) contract
//   "ESZ4"  "ESZ24"  "ESZ2024"  "/ESZ24"        dated: root, month code, 1, 2 or 4 digit year
// All dated spellings of a contract have one canonical form: root + month code + 4-digit year.
// A dated contract lies within ten years of now: further off the symbol names something else, a
// CFD (HK50, the Hang Seng, not May 2050) or another market's code (AU2506: Shanghai gold, June
// 2025), and is read as a ticker. So are index CFDs whose names read like a contract month soon.
import { isKnownFutureRoot } from './future-roots.ts';
import { FUTURE_MONTH_CODES, type FutureMonthCode, type ParsedSymbol } from './parsed-symbol.ts';

// No ticker ends in "!": a root of any length up to 12 is a continuous contract (TradingView's
// NSE:BANKNIFTY1!, MCX:CRUDEOIL1!), where the dated form keeps to 5 (ESZ24 must not read as a root).
const CONTINUOUS = /^\/?([A-Z0-9]{1,12})([1-9])!$/;
// The root is lazy so that a root ending in a month letter still leaves the last one for the month.
/** A dated contract: root, month code, 1, 2 or 4 digit year (a leading / as thinkorswim writes it). */
export const DATED = /^\/?([A-Z0-9]{1,5}?)([FGHJKMNQUVXZ])(\d{4}|\d{2}|\d)$/;
const MAX_YEARS_AWAY = 10;
/** Index CFDs as brokers name them whose names would read as a contract month. */
// biome-ignore format: one market per line
export const INDEX_CFD_NAMES: ReadonlySet<string> = new Set([
  'DJ30',
  'UK50',
  'DAX30', 'DAX40',
  'EU50', 'EUSTX50', 'ESTX50', 'STOXX50',
  'IBEX35',
  'NETH25', 'AEX25',
  'CH20',
  'HK50', 'HK33', 'HKG33',
  'CN50', 'CHN50',
  'SG30', 'SGX30',
  'IN50',
  'NZ50',
  'MEX35',
  'TWN50',
  'VN30', // Ho Chi Minh City's VN30, not root V in July 2030
  'PH30', // the Philippine index, not root P in July 2030
]);

/** A known root's continuous name without its "!": ES1, /GC2. */
const CONTINUOUS_WITHOUT_BANG = /^\/?([A-Z0-9]{1,5})[12]$/;

/**
 * TradingView's continuous name a symbol may stand for, its "!" left out: NQ1 reads as root N,
 * August of a year ending in 1, and as NQ1!, the front contract (TradingView names 1! and 2!); ES1
 * and GC1, a known root's, read as a stock ticker and as ES1! and GC1!. Returns NQ1! for a symbol
 * (as written, no exchange) that reads both ways, else undefined.
 */
export function continuousLookalike(written: string): string | undefined {
  const year = DATED.exec(written)?.[3];
  const root = CONTINUOUS_WITHOUT_BANG.exec(written)?.[1];
  const lookalike = year === '1' || year === '2' || (root !== undefined && isKnownFutureRoot(root));
  return lookalike ? `${written.replace(/^\//, '')}!` : undefined;
}

export function parseFuture(symbol: string, now: number): ParsedSymbol | undefined {
  const continuous = CONTINUOUS.exec(symbol);
  if (continuous) {
    const [, root = '', position = '1'] = continuous;
    if (!/[A-Z]/.test(root)) return undefined;
    return {
      canonical: `${root}${position}!`,
      class: 'future',
      recognized: true,
      parts: { kind: 'continuous_future', root, position: Number(position) },
    };
  }
  const dated = DATED.exec(symbol);
  if (!dated || INDEX_CFD_NAMES.has(symbol)) return undefined;
  const [, root = '', code = 'F', digits = '0'] = dated;
  if (!/[A-Z]/.test(root)) return undefined;
  const monthCode = code as FutureMonthCode;
  const month = FUTURE_MONTH_CODES.indexOf(monthCode) + 1;
  const year = resolveYear(digits, month, now);
  if (Math.abs(year - new Date(now).getUTCFullYear()) > MAX_YEARS_AWAY) return undefined;
  return {
    canonical: `${root}${monthCode}${year}`,
    class: 'future',
    recognized: true,
    parts: { kind: 'future', root, monthCode, month, year },
  };
}

const DAY_MS = 86_400_000;

/**
 * Whether a dated contract has certainly stopped trading at `now`: no contract trades past its
 * month (ES ends on the month's third Friday, CL the month before, ZQ on its last business day),
 * and a day's margin covers the exchange's time zone. ESH2020 is no order a broker could fill.
 */
export function isContractExpired(parts: { month: number; year: number }, now: number): boolean {
  return now >= Date.UTC(parts.year, parts.month) + DAY_MS;
}

/**
 * The one-digit year brokers name a contract with (ESZ6), when it reads back as `year`: for a
 * contract five years or more from now it names another decade's (ESZ2036 → ESZ6, December 2026).
 */
export function oneDigitYear(year: number, month: number, now: number): string | undefined {
  const digit = String(year % 10);
  return resolveYear(digit, month, now) === year ? digit : undefined;
}

/**
 * The full year of a 1 or 2 digit year: of the candidate decades (centuries), the one whose
 * contract month lies nearest to now; a tie goes to the later one, since contracts trade ahead.
 */
export function resolveYear(digits: string, month: number, now: number): number {
  const value = Number(digits);
  if (digits.length === 4) return value;
  const span = digits.length === 1 ? 10 : 100;
  const today = new Date(now);
  const nowMonths = today.getUTCFullYear() * 12 + today.getUTCMonth();
  const base = Math.floor(today.getUTCFullYear() / span) * span + value;
  let best = base;
  for (const candidate of [base - span, base, base + span]) {
    const distance = Math.abs(candidate * 12 + month - 1 - nowMonths);
    const bestDistance = Math.abs(best * 12 + month - 1 - nowMonths);
    if (distance < bestDistance || (distance === bestDistance && candidate > best)) best = candidate;
  }
  return best;
}
