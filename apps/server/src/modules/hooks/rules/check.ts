// The checks of a hook's rules that need no database, in the order the signal path runs them:
// the sender's address and the clock (before the body is read), the body before normalization
// (signal time, symbol mapping), the normalized order (symbols, quantity, notional). Each refusal
// names its rule by the settings key, which the answer and the activity entry carry.
import { duplicateKey, exchangePrefix, isExitAction, type Order, type OrderLeg, PLACEHOLDER } from '@router/orders';
import { type CompiledRules, localTime } from './compile.ts';
import { exchangeName, routedExchange } from './exchange-name.ts';

export interface RuleRefusal {
  /** The settings key that refused: `maxQuantity`, `sourceAddresses`, … */
  rule: string;
  message: string;
}

/** How far a sender's clock may be from ours (either way) before its time counts against it. */
export const MAX_CLOCK_SKEW_MS = 5_000;

export const refusal = (rule: string, reason: string): RuleRefusal => ({ rule, message: `${rule}: ${reason}` });

export function checkSource(rules: CompiledRules, address: string): RuleRefusal | undefined {
  if (!rules.sources) return undefined;
  const plain = address.toLowerCase().replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '');
  const allowed = plain.includes(':') ? rules.sources.check(plain, 'ipv6') : rules.sources.check(plain, 'ipv4');
  return allowed ? undefined : refusal('sourceAddresses', `calls from ${address} are not allowed on this webhook`);
}

export function checkWindow(rules: CompiledRules, now: Date): RuleRefusal | undefined {
  if (!rules.windows) return undefined;
  for (const w of rules.windows) {
    const { day, minute } = localTime(w.zone, now);
    if (w.days.has(day) && minute >= w.from && minute < w.to) return undefined;
  }
  return refusal('tradingWindows', 'outside the trading windows of this webhook');
}

/**
 * The body before normalization: the stale-signal guard reads `time`/`timestamp`, the symbol map
 * rewrites symbols. Returns the body to normalize (the text itself when there is nothing to do or
 * it is no JSON object: normalization then refuses it as usual), or a refusal.
 */
export function prepareBody(
  rules: CompiledRules,
  request: string,
  nowMs: number,
  checkAge = true,
): string | object | RuleRefusal {
  let body: unknown;
  try {
    body = JSON.parse(request);
  } catch {
    return request;
  }
  // A key given twice is lost in the parsed object: normalizing the text refuses it.
  if (typeof body !== 'object' || body === null || Array.isArray(body) || duplicateKey(request) !== undefined) {
    return request;
  }
  const fields = body as Record<string, unknown>;
  if (rules.maxLagMs !== undefined && checkAge) {
    const stale = signalAge(fields, rules.maxLagMs, nowMs);
    if (stale) return refusal('maxLagSeconds', stale);
  }
  if (rules.symbolMap) mapSymbols(fields, rules.symbolMap);
  return fields;
}

/** Times further apart than this in `time` and `timestamp` are two different times. */
const MAX_TIME_DISAGREEMENT_MS = 1_000;

/**
 * The guard on the signal's time. Given both `time` and `timestamp`, each must read and pass, and
 * they must name one instant (to the second, as epoch seconds do): a fresh `time` beside a stale
 * `timestamp` is no fresh signal, and which one the sender meant cannot be told.
 */
function signalAge(fields: Record<string, unknown>, maxLagMs: number, nowMs: number): string | undefined {
  const given = (['time', 'timestamp'] as const).filter(
    (field) => fields[field] !== undefined && fields[field] !== null,
  );
  if (given.length < 2) return staleness(fields[given[0] ?? 'time'], given[0] ?? 'time', maxLagMs, nowMs);
  for (const field of given) {
    const stale = staleness(fields[field], field, maxLagMs, nowMs);
    if (stale) return stale;
  }
  const [time = 0, timestamp = 0] = given.map((field) => signalTime(fields[field]) ?? 0);
  if (Math.abs(time - timestamp) < MAX_TIME_DISAGREEMENT_MS) return undefined;
  const apart = Math.round(Math.abs(time - timestamp) / 1000);
  return `time and timestamp are ${apart} s apart; send one of them`;
}

function staleness(value: unknown, field: string, maxLagMs: number, nowMs: number): string | undefined {
  if (value === undefined || value === null || value === '')
    return 'the signal carries no time; add "time": "{{timenow}}" to the alert';
  const sentAt = signalTime(value);
  if (sentAt === undefined) {
    const text = String(value).trim().slice(0, 64);
    const placeholder = PLACEHOLDER.exec(text)?.[0];
    if (placeholder) return `${field}: placeholder ${placeholder} was not replaced by the sender`;
    return ZONELESS_TIME.test(text)
      ? `${field}: ${text} gives no time zone; send it in UTC with a Z, as TradingView's {{timenow}} does (2026-03-02T14:30:05Z)`
      : `${field}: not a time: ${text}`;
  }
  const lag = nowMs - sentAt;
  if (lag > maxLagMs + MAX_CLOCK_SKEW_MS) {
    return `signal is ${Math.round(lag / 1000)} s old, more than this webhook's ${maxLagMs / 1000} s`;
  }
  if (lag < -MAX_CLOCK_SKEW_MS) return `time: ${Math.round(-lag / 1000)} s ahead of the server's clock`;
  return undefined;
}

/** ISO 8601 date and time with its zone, as TradingView's {{timenow}}: 2026-03-02T14:30:05Z. */
const ISO_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:[Zz]|[+-]\d{2}:?\d{2})$/;
/** The same without a zone: JavaScript reads it in the server's zone, which is not the sender's. */
const ZONELESS_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?$/;

/**
 * Milliseconds since the epoch: ISO 8601 text with its zone, or seconds / milliseconds as number
 * or digits. Other text is no time (Date.parse would read "11/27/2026 21:00" or a zoneless time
 * in the server's own zone, and a late alert from a sender east of it would pass as fresh).
 */
export function signalTime(value: unknown): number | undefined {
  const numeric =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && /^\d+(\.\d+)?$/.test(value)
        ? Number(value)
        : undefined;
  // Seconds until the year 5138; anything larger is milliseconds.
  if (numeric !== undefined) return Number.isFinite(numeric) ? (numeric < 1e11 ? numeric * 1000 : numeric) : undefined;
  if (typeof value !== 'string' || !ISO_TIME.test(value.trim())) return undefined;
  const ms = Date.parse(value.trim());
  return Number.isNaN(ms) ? undefined : ms;
}

/** `symbol`, `symbol[n]` and `legs[i].symbol`, each mapped once. */
function mapSymbols(fields: Record<string, unknown>, map: ReadonlyMap<string, string>): void {
  const lookUp = (text: string) => map.get(text) ?? map.get(text.toUpperCase());
  const mapped = (value: unknown): unknown => {
    // A ticker sent as a number (7203) is a symbol too: the order language reads it as text.
    if (typeof value !== 'string' && typeof value !== 'number') return value;
    const text = String(value).trim();
    const target = lookUp(text);
    if (target !== undefined) return target;
    // TradingView's {{exchange}}:{{ticker}} (CME_MINI:ES1!): mapped by the symbol's own key, on
    // its exchange, unless the target names its own.
    const prefix = exchangePrefix(text);
    const bare = prefix === undefined ? undefined : lookUp(text.slice(text.indexOf(':') + 1).trim());
    if (bare === undefined) return value;
    return exchangePrefix(bare) === undefined ? `${prefix}:${bare}` : bare;
  };
  for (const key of Object.keys(fields)) {
    if (key === 'symbol' || /^symbol\[\d+\]$/.test(key)) fields[key] = mapped(fields[key]);
  }
  if (Array.isArray(fields.legs)) {
    for (const leg of fields.legs) {
      if (leg && typeof leg === 'object' && 'symbol' in leg) {
        (leg as Record<string, unknown>).symbol = mapped((leg as Record<string, unknown>).symbol);
      }
    }
  }
}

/**
 * Symbols, quantity and notional of the normalized order. `lotsAt`: the title of the order's
 * broker when its quantities are lots (`quantityInLots`), which no notional can be known of.
 */
export function checkOrder(rules: CompiledRules, order: Order, lotsAt?: string): RuleRefusal | undefined {
  if (rules.symbols) {
    // A bare entry allows the symbol on any exchange; NASDAQ:AAPL only an order that names NASDAQ
    // (a leg names none: its prefix is not kept, so it goes wherever the broker routes it). Saxo
    // routes by extra.exchange, not by the prefix: an order naming both must be allowed on each.
    const allowed = (symbol: string, exchanges: readonly string[]) =>
      rules.symbols?.has(symbol) ||
      (exchanges.length > 0 && exchanges.every((exchange) => rules.symbols?.has(`${exchange}:${symbol}`)));
    const routed = [routedExchange(order) ?? []].flat();
    const prefix = order.exchange === undefined ? [] : [exchangeName(order.exchange)];
    const symbols = order.legs?.length
      ? order.legs.map((leg) => ({ symbol: leg.symbol.toUpperCase(), exchanges: routed }))
      : [{ symbol: order.symbol.toUpperCase(), exchanges: [...prefix, ...routed] }];
    const denied = symbols.find((s) => !allowed(s.symbol, s.exchanges));
    // A close or cancel of a symbol taken off the list is the way out of what it left (a sell of
    // the long held is lifted by the positions: rules-gate.ts's unlessWayOut).
    if (denied !== undefined && !isExitAction(order.action)) {
      const exchange = denied.exchanges.find((e) => !rules.symbols?.has(`${e}:${denied.symbol}`));
      const named = exchange ? `${exchange}:${denied.symbol}` : denied.symbol;
      return refusal('symbols', `${named} is not among this webhook's symbols`);
    }
  }
  // A close (at most what is held, at every broker) and a cancel never open or grow a position:
  // they are the way out, which no size limit may stand in (maxPosition lets them through too).
  if (isExitAction(order.action)) return undefined;
  if (rules.maxQuantity !== undefined) {
    const over = checkQuantity(order, rules.maxQuantity);
    if (over) return over;
  }
  if (rules.maxNotional !== undefined) return checkNotional(order, rules.maxNotional, lotsAt);
  return undefined;
}

/**
 * maxQuantity counts units (shares, contracts, coins): a fixed quantity as it is, a cash amount
 * at the order's own price (a limit, a stop) turned into units. A quantity that cannot be counted
 * here (a percent, a cash amount at market) is refused rather than let through unchecked: 100 %
 * of the equity would pass any maximum.
 */
function checkQuantity(order: Order, max: number): RuleRefusal | undefined {
  const over = (units: number, what = `quantity ${units}`) =>
    units > max ? refusal('maxQuantity', `${what} is more than this webhook's maximum of ${max}`) : undefined;
  if (order.quantity_type === 'fixed') {
    const quantities = [order.quantity ?? 0, ...(order.legs ?? []).map((leg) => leg.quantity)];
    return over(Math.max(...quantities.map(Math.abs)));
  }
  if (order.quantity === undefined) return undefined;
  const price = ownPrice(order);
  const multiplier = contractMultiplier(order);
  if (order.quantity_type === 'cash' && price !== undefined && price > 0 && multiplier !== undefined) {
    const units = Math.abs(order.quantity) / (price * multiplier);
    return over(units, `cash ${order.quantity} at ${price} buys ${Math.round(units * 1e4) / 1e4} units, which`);
  }
  const why =
    order.quantity_type === 'cash'
      ? 'a cash quantity without a price of its own cannot be counted in units here; send a limit price or a fixed quantity'
      : `a ${order.quantity_type} quantity cannot be counted in units here; send a fixed quantity`;
  return refusal('maxQuantity', why);
}

function checkNotional(order: Order, max: number, lotsAt: string | undefined): RuleRefusal | undefined {
  if (order.quantity === undefined) return undefined;
  if (order.quantity_type === 'cash') return overNotional(order.quantity, max);
  if (order.quantity_type !== 'fixed') {
    return refusal('maxNotional', `a ${order.quantity_type} quantity cannot be valued; send a fixed or cash quantity`);
  }
  if (lotsAt !== undefined) return lotsRefusal(lotsAt);
  const multiplier = contractMultiplier(order);
  if (multiplier === undefined) return futureRefusal(order);
  // A market order has no price of its own: valued at the broker's last price (broker-limits.ts).
  const price = ownPrice(order);
  if (valuedByLegs(order) && order.legs) return legsNotional(order, order.legs, max);
  return price === undefined ? undefined : overNotional(Math.abs(order.quantity * price * multiplier), max);
}

/**
 * A multi-leg order valued by its legs: without a net price of its own, at a net price of 0
 * (legs that offset each other, which values none of them: a spread of every size would pass) or
 * below (a credit: what the trader receives for writing the legs, not what they are worth; at
 * -0.05 a credit spread of every size passed), or not a combo: an oco's or oto's legs are orders of
 * their own, each placed at its own limit price, so the order's limit_price values none of them
 * (at 0.01 it valued 1,000 shares at 10).
 */
export const valuedByLegs = (order: Order): boolean =>
  Boolean(order.legs?.length) && (!((ownPrice(order) ?? 0) > 0) || order.group !== 'combo');

/**
 * A multi-leg order valued by its legs (valuedByLegs): every leg at its own limit price, summed.
 * The broker's last price is of one symbol only, so a leg at market is refused rather than valued
 * at another leg's price (or left out).
 */
function legsNotional(order: Order, legs: readonly OrderLeg[], max: number): RuleRefusal | undefined {
  let notional = 0;
  for (const leg of legs) {
    if (leg.limit_price === undefined) {
      const net = ownPrice(order);
      const why =
        order.group !== 'combo'
          ? ` (an ${order.group}'s legs are orders of their own)`
          : net === 0
            ? ' (a net price of 0 values none of the legs)'
            : net !== undefined && net < 0
              ? ' (a net credit values none of the legs)'
              : undefined;
      const how =
        why === undefined
          ? '; give every leg a limit price, or the order a limit_price'
          : `${why}; give every leg a limit price`;
      return refusal('maxNotional', `the leg on ${leg.symbol} has no price to value it with${how}`);
    }
    notional += Math.abs(leg.quantity * leg.limit_price * (leg.class === 'option' ? OPTION_MULTIPLIER : 1));
  }
  return overNotional(notional, max);
}

/** Shares per (US equity and index) option contract: its price is per share, as the brokers here quote it. */
export const OPTION_MULTIPLIER = 100;

/**
 * What one unit of the order's quantity is worth per unit of its price: an option contract is
 * 100 shares (its price is per share); a future's value per point is its contract's own (ES $50,
 * NQ $20…), which the order does not say: undefined. Anything else: 1. A multi-leg order counts
 * as its largest leg.
 */
export function contractMultiplier(order: Order): number | undefined {
  const classes = order.legs?.length ? order.legs.map((leg) => leg.class) : [order.class];
  if (classes.includes('future')) return undefined;
  return classes.includes('option') ? OPTION_MULTIPLIER : 1;
}

/** maxNotional cannot value a future: refused rather than valued at a guess (too low lets it through). */
export const futureRefusal = (order: Order): RuleRefusal =>
  refusal(
    'maxNotional',
    `the notional of a future cannot be known here (the value of a point of ${order.legs?.find((leg) => leg.class === 'future')?.symbol ?? order.symbol} is not); limit futures with maxQuantity`,
  );

/** The broker's title when its quantities are lots (checkOrder's `lotsAt`); else undefined. */
export const lotsAt = (descriptor: { title: string; quantityInLots?: true } | undefined) =>
  descriptor?.quantityInLots ? descriptor.title : undefined;

/** maxNotional at a broker whose quantities are lots (a lot's size differs per symbol): refused. */
export const lotsRefusal = (title: string): RuleRefusal =>
  refusal(
    'maxNotional',
    `${title} takes quantities in lots, whose size differs per symbol, so no notional can be known; limit them with maxQuantity`,
  );

/** The price the order itself may trade at: the stop price of a stop order, else its limit price. */
export const ownPrice = (order: Order): number | undefined =>
  order.type === 'stop' ? order.stop_price : order.limit_price;

export function overNotional(notional: number, max: number): RuleRefusal | undefined {
  if (notional <= max) return undefined;
  return refusal('maxNotional', `notional ${round(notional)} is more than this webhook's maximum of ${max}`);
}

const round = (n: number): number => Math.round(n * 100) / 100;
