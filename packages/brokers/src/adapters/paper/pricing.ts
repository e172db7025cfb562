// An instrument's price at an instant: its quote key's walk times the account's scale (a
// signal's extra.price), futures with a carry to their expiry, options from their underlying
// (Black-Scholes), rounded to the instrument's tick.

import { roundToTick } from '../../core/ticks.ts';
import type { Instrument } from './instruments.ts';
import type { QuoteSource } from './quotes.ts';

/** The account's factor for a scale key (1 when no signal set one). */
export type ScaleOf = (key: string) => number;

const YEAR = 365.25 * 86_400_000;
const MONTH = YEAR / 12;
/** Futures trade this much above the front per month further out (a mild contango). */
const CARRY_PER_MONTH = 0.002;
const RATE = 0.04;

/** Standard normal distribution function (Abramowitz and Stegun 26.2.17, error < 7.5e-8). */
function normal(x: number): number {
  const t = 1 / (1 + 0.2316419 * Math.abs(x));
  const poly = t * (0.31938153 + t * (-0.356563782 + t * (1.781477937 + t * (-1.821255978 + t * 1.330274429))));
  const tail = (Math.exp((-x * x) / 2) / Math.sqrt(2 * Math.PI)) * poly;
  return x >= 0 ? 1 - tail : tail;
}

/** Black-Scholes premium of a European option; intrinsic value at and after expiry. */
export function optionPremium(spot: number, strike: number, years: number, volatility: number, right: 'C' | 'P') {
  const intrinsic = right === 'C' ? Math.max(0, spot - strike) : Math.max(0, strike - spot);
  if (years <= 0) return intrinsic;
  const deviation = volatility * Math.sqrt(years);
  const d1 = (Math.log(spot / strike) + (RATE + (volatility * volatility) / 2) * years) / deviation;
  const d2 = d1 - deviation;
  const discount = Math.exp(-RATE * years);
  return right === 'C'
    ? spot * normal(d1) - strike * discount * normal(d2)
    : strike * discount * normal(-d2) - spot * normal(-d1);
}

/** A contract's price stops at its expiry: held past it, it is worth what it settled at. */
function settledAt(instrument: Instrument, at: number): number {
  return instrument.expiresAt === undefined ? at : Math.min(at, instrument.expiresAt);
}

/** The price before the account's own scale for this instrument: what a scale multiplies. */
export function unscaledPrice(instrument: Instrument, at: number, quote: QuoteSource, scaleOf: ScaleOf): number {
  const { option, future } = instrument;
  const when = settledAt(instrument, at);
  if (option) {
    const spot = priceOf(option.underlying, when, quote, scaleOf);
    const years = ((instrument.expiresAt ?? when) - when) / YEAR;
    const premium = optionPremium(spot, option.strike, years, option.volatility, option.right);
    // Trading, an option costs at least a tick; expired, it is its intrinsic value (nothing out of the money).
    return years > 0 ? Math.max(instrument.tick, premium) : premium;
  }
  const price = quote(instrument.priceKey, instrument.priceClass, when);
  if (!future) return price;
  // A continuous future (ES1!) carries what its contract does on average: half the months between
  // listed contracts for the front, as many more for each next. Priced as its contract of the day,
  // it jumped by those months of carry at every roll: a P&L out of nothing (1,500 USD on one ES).
  const months =
    instrument.expiresAt !== undefined
      ? Math.max(0, (instrument.expiresAt - when) / MONTH)
      : ((future.position ?? 1) - 0.5) * (12 / future.months.length);
  return price * (1 + CARRY_PER_MONTH * months);
}

export function priceOf(instrument: Instrument, at: number, quote: QuoteSource, scaleOf: ScaleOf): number {
  const price = unscaledPrice(instrument, at, quote, scaleOf) * scaleOf(instrument.scaleKey);
  const expired = instrument.expiresAt !== undefined && at >= instrument.expiresAt;
  return Math.max(instrument.option && expired ? 0 : instrument.tick, roundToTick(price, instrument.tick));
}
