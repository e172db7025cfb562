// A price on an instrument's tick: the paper broker's fills and exits, and a limit sent to an
// exchange whose library would round it to the nearest tick (ccxt).
import { decimalString } from './json-read.ts';

/** The decimals a step (a tick, a lot size) is written with: 2 for 0.01, 9 for 0.000000001. */
export function decimalsOf(step: number): number {
  for (let decimals = 0; decimals < 12; decimals++) {
    if (Math.abs(Math.round(step * 10 ** decimals) - step * 10 ** decimals) < 1e-9) return decimals;
  }
  return 12;
}

/**
 * A multiple of `tick`, written with no more decimals than the tick has: the nearest, or the one
 * at or below (`down`) or at or above (`up`) the price. A limit snaps towards the trader's side:
 * a buy at most 100.006 is a buy at most 100.00, never at 100.01.
 */
export function roundToTick(price: number, tick: number, direction: 'nearest' | 'down' | 'up' = 'nearest'): number {
  const decimals = decimalsOf(tick);
  const ticks = price / tick;
  const nearest = Math.round(ticks);
  const onTick = (whole: number) => Number((whole * tick).toFixed(decimals));
  // A price already on the tick stays where it is, however far from whole its quotient came out
  // (1000000.19 / 0.01 = 100000018.99999999: past 10^8 ticks binary noise outgrows any fixed epsilon).
  if (onTick(nearest) === price) return price;
  // The epsilon keeps a price noise took off the tick (0.1 + 0.2 = 0.30000000000000004) on it.
  const whole =
    direction === 'down' ? Math.floor(ticks + 1e-9) : direction === 'up' ? Math.ceil(ticks - 1e-9) : nearest;
  return onTick(whole);
}

/**
 * A positive price on its tick (roundToTick), refused with `refuse`'s error when the rounding
 * takes it to 0 or below: a buy's limit of 0.00001234 on a cent tick is 0, another order than the
 * trader's. The message names the price and the tick ("0.00001234 is less than one tick (0.01)…");
 * the caller puts the field before it. A price of 0 or below to begin with is the caller's to judge
 * (a combo's net may be a credit).
 */
export function positiveOnTick(
  price: number,
  tick: number,
  direction: 'nearest' | 'down' | 'up',
  refuse: (message: string) => Error,
): number {
  const onTick = roundToTick(price, tick, direction);
  if (price > 0 && !(onTick > 0)) throw refuse(`${price} is less than one tick (${tick}): it would be ${onTick}`);
  return onTick;
}

/**
 * A US stock or option price on the tick US markets quote (Reg NMS 612: a cent, or $0.0001 under a
 * dollar; options in cents). A limit is never rounded past the trader's: a buy's down, a sell's up;
 * a stop goes the same way (a sell's stop-loss triggers no lower than asked), which keeps a
 * stop-limit's limit on its side of the stop. A positive price under one tick is refused
 * (positiveOnTick), never sent as 0.
 */
export function usPriceOnTick(
  price: number,
  buying: boolean,
  option: boolean,
  refuse: (message: string) => Error,
): number {
  const tick = option || price >= 1 ? 0.01 : 0.0001;
  return positiveOnTick(price, tick, buying ? 'down' : 'up', (message) => refuse(`price ${message}`));
}

/**
 * A price on `tick` where it is known, never past the trader's (a buy's down, a sell's up; a stop
 * alike), refused with `refuse`'s error if that takes it to 0; as given, without float noise
 * (5400.250000000001 → 5400.25), where it is not (a futures root missing from the tick table).
 */
export function priceOnKnownTick(
  price: number,
  tick: number | undefined,
  buying: boolean,
  refuse: (message: string) => Error,
): number {
  if (tick === undefined) return Number(decimalString(price));
  return positiveOnTick(price, tick, buying ? 'down' : 'up', refuse);
}
