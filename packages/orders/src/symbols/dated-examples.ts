// Examples that carry a date (an option's expiry, a future's contract month, an `extra`
// expiration) go stale: a trader who copies `SPY240119C00450000` in 2026 gets a refused order.
// Written examples keep their spelling; only the date is moved, as of the clock given:
//   options   expiry → the third Friday of the month three months ahead (a standard monthly)
//   futures   month and year → the next quarterly month (H, M, U, Z) after this one
//   dates     YYYY-MM-DD in any other example (an `extra` JSON) → that same option expiry

import type { Provider } from '../types.ts';
import { continuousLookalike, DATED, oneDigitYear } from './future.ts';
import { parseSymbol } from './parse-symbol.ts';
import { FUTURE_MONTH_CODES } from './parsed-symbol.ts';

const OPTION = /^([A-Za-z][A-Za-z0-9.]{0,5}?(?: +|_)?)(\d{6})([CPcp]\d{1,8}(?:\.\d{1,3})?)$/;
/** An exchange prefix as TradingView writes it: CME:NQH27. */
const EXCHANGE = /^([A-Za-z0-9_]{1,20}:)(.+)$/;
const ISO_DATE = /(?<!\d)\d{4}-\d{2}-\d{2}(?!\d)/g;
const QUARTERLY = [3, 6, 9, 12] as const;

/** A monthly option expiry a few months ahead: the third Friday of the month three months from now. */
export function exampleOptionExpiry(now: number): Date {
  const today = new Date(now);
  const first = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() + 3, 1));
  const firstFriday = 1 + ((5 - first.getUTCDay() + 7) % 7);
  return new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth(), firstFriday + 14));
}

/** The next quarterly contract month after the current one (in November: December; in December: March). */
export function exampleContractMonth(now: number): { year: number; month: (typeof QUARTERLY)[number] } {
  const today = new Date(now);
  const current = today.getUTCMonth() + 1;
  const month = QUARTERLY.find((candidate) => candidate > current);
  return month ? { year: today.getUTCFullYear(), month } : { year: today.getUTCFullYear() + 1, month: 3 };
}

/** The example with its date moved to one that is current as of `now`; undated examples unchanged. */
export function currentExample<T extends string | number>(example: T, now: number): T | string {
  if (typeof example !== 'string') return example;
  const exchange = EXCHANGE.exec(example);
  if (exchange) return `${exchange[1]}${currentExample(exchange[2] ?? '', now)}`;
  const option = OPTION.exec(example);
  if (option && isSymbolOfClass(example, 'option', now)) {
    const [, root = '', , rest = ''] = option;
    return `${root}${isoDate(exampleOptionExpiry(now)).slice(2).replaceAll('-', '')}${rest}`;
  }
  const future = DATED.exec(example);
  // Read as a contract from its own year's clock: one long past reads as a ticker today (ESZ2014).
  const [, root = '', , digits = ''] = future ?? [];
  const slash = example.startsWith('/') ? '/' : '';
  const written = digits.length === 1 ? now : Date.UTC((digits.length === 2 ? 2000 : 0) + Number(digits), 0, 1);
  if (future && isSymbolOfClass(example, 'future', written)) {
    const { year, month } = exampleContractMonth(now);
    const code = FUTURE_MONTH_CODES[month - 1];
    const oneDigit = oneDigitYear(year, month, now) ?? String(year % 10);
    // A year ending in 1 or 2 in one digit reads as a continuous contract too (ESH1: ESH1!): two digits.
    const spelled =
      digits.length === 4
        ? String(year)
        : digits.length === 2 || continuousLookalike(`${root}${code}${oneDigit}`)
          ? String(year % 100).padStart(2, '0')
          : oneDigit;
    return `${slash}${root}${code}${spelled}`;
  }
  return example.replace(ISO_DATE, isoDate(exampleOptionExpiry(now)));
}

/** The provider with every example of its reference current as of `now` (the descriptors' are written once). */
export function withCurrentExamples(provider: Provider, now: number): Provider {
  const reference: Provider['reference'] = {};
  for (const [name, parameter] of Object.entries(provider.reference) as Array<
    [keyof Provider['reference'], NonNullable<Provider['reference'][keyof Provider['reference']]>]
  >) {
    reference[name] = parameter.examples
      ? { ...parameter, examples: parameter.examples.map((example) => currentExample(example, now)) }
      : parameter;
  }
  return { ...provider, reference };
}

function isSymbolOfClass(symbol: string, kind: 'option' | 'future', now: number): boolean {
  try {
    return parseSymbol(symbol, { now: () => now }).parts.kind === kind;
  } catch {
    return false;
  }
}

function isoDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}
