// Builds the normalized Order from a schema-checked body: evaluates numeric expressions,
// parses symbols, resolves classes and fills the defaults of SPEC §5:
//   quantity_type fixed; type limit when limit_price is given (stop / stop_limit likewise with a
//   stop price), else market; duration gtc for limit, stop and stop_limit, else day; group combo
//   for multi-leg orders.
import {
  isActionValidForClass,
  isExitAction,
  NON_OPTION_ACTIONS,
  OPTION_ACTIONS,
  sortClasses,
} from '../enumerations.ts';
import { NO_SYMBOL, OrderValidationError, refuse } from '../errors.ts';
import { toNumber } from '../expression/evaluate.ts';
import { continuousLookalike, DATED, isContractExpired } from '../symbols/future.ts';
import { isOptionExpired } from '../symbols/option.ts';
import { decoratedPairName } from '../symbols/pair.ts';
import { isClassCompatible, parseSymbol, symbolAfterExchange, writtenSymbol } from '../symbols/parse-symbol.ts';
import type { ParsedSymbol } from '../symbols/parsed-symbol.ts';
import type { Duration, Order, OrderAction, OrderClass, OrderLeg, OrderType, Provider } from '../types.ts';
import type { LegFieldName } from './indexed-legs.ts';
import type { RawLeg, RawOrder } from './raw-schema.ts';

export interface BuildContext {
  now: () => number;
  legFieldName: LegFieldName;
  provider?: Provider | undefined;
}

const NUMERIC_FIELDS = [
  'limit_price',
  'stop_price',
  'stop_price_distance',
  'stop_price_percent',
  'take_profit_price',
  'stop_loss_price',
  'stop_loss_price_distance',
  'stop_loss_price_percent',
] as const;

export function buildOrder(raw: RawOrder, context: BuildContext): Order {
  const numbers: Partial<Record<(typeof NUMERIC_FIELDS)[number], number>> = {};
  for (const field of NUMERIC_FIELDS) {
    const value = raw[field];
    if (value !== undefined) numbers[field] = toNumber(value, field);
  }
  const hasStop = ['stop_price', 'stop_price_distance', 'stop_price_percent'].some((field) => field in numbers);
  const type = raw.type ?? defaultType(numbers.limit_price !== undefined, hasStop);
  const main = raw.legs ? mainOfLegs(raw, context) : single(raw, context);
  checkExitFields(raw, main.action);
  const order: Order = {
    symbol: main.symbol,
    ...(main.exchange ? { exchange: main.exchange } : {}),
    class: main.class,
    action: main.action,
    quantity_type: raw.quantity_type ?? 'fixed',
    type,
    duration: raw.duration ?? defaultDuration(type),
  };
  if (main.quantity !== undefined) order.quantity = main.quantity;
  Object.assign(order, numbers);
  if (raw.client_id !== undefined) order.client_id = raw.client_id;
  if (raw.parent_id !== undefined) order.parent_id = raw.parent_id;
  if (raw.group !== undefined || main.legs) order.group = raw.group ?? 'combo';
  if (main.legs) order.legs = main.legs;
  if (raw.extra !== undefined) order.extra = raw.extra;
  return reorder(order);
}

/**
 * What a close or cancel cannot honour, refused rather than ignored (never broader than written):
 * a cancel withdraws every open order on the symbol, so a quantity (or its quantity_type) would not limit it; a
 * close's quantity_type reads its quantity, so it needs one; both are sent at the market by each
 * broker's own rule, so a duration would not be kept.
 */
function checkExitFields(raw: RawOrder, action: OrderAction): void {
  if (!isExitAction(action)) return;
  if (action === 'cancel') {
    // quantity_type says how to read a quantity, and a cancel has none: "cash" would not limit it either.
    const field = (['quantity', 'quantity_type'] as const).find((name) => raw[name] !== undefined);
    if (field) throw refuse(field, 'not used with action cancel (it cancels every open order on the symbol)');
  } else if (raw.quantity_type !== undefined && raw.quantity === undefined) {
    // A close without a quantity closes the whole position: "percent_of_position" with its 50 left
    // out would close all of it, not the half the sender meant.
    throw refuse('quantity_type', 'given without quantity (a close without quantity closes the whole position)');
  }
  if (raw.duration !== undefined) throw refuse('duration', `not used with action ${action}`);
}

export function defaultType(hasLimit: boolean, hasStop: boolean): OrderType {
  if (hasLimit) return hasStop ? 'stop_limit' : 'limit';
  return hasStop ? 'stop' : 'market';
}

export function defaultDuration(type: OrderType): Duration {
  return type === 'market' ? 'day' : 'gtc';
}

/** The duration an order of `type` naming none gets at `provider`: the default, or where it lacks that one, its first. */
export function providerDefaultDuration(provider: Provider | undefined, type: OrderType): Duration {
  const wanted = defaultDuration(type);
  const values = provider?.reference.duration?.values;
  return !values?.length || values.includes(wanted) ? wanted : (values[0] as Duration);
}

interface Main {
  symbol: string;
  exchange?: string | undefined;
  class: OrderClass;
  action: OrderAction;
  quantity?: number | undefined;
  legs?: OrderLeg[];
}

function single(raw: RawOrder, context: BuildContext): Main {
  if (raw.symbol === undefined || raw.symbol.trim() === '') throw new OrderValidationError('symbol', NO_SYMBOL);
  if (raw.action === undefined) throw refuse('action', 'required');
  const opening = opens(raw.action);
  const { symbol, orderClass, exchange } = resolveSymbol(raw.symbol, raw.class, 'symbol', 'class', context, opening);
  checkAction(raw.action, orderClass, 'action');
  const quantity = raw.quantity === undefined ? undefined : toNumber(raw.quantity, 'quantity');
  if (quantity === undefined && !isExitAction(raw.action)) throw refuse('quantity', 'required');
  return { symbol, exchange, class: orderClass, action: raw.action, quantity };
}

function mainOfLegs(raw: RawOrder, context: BuildContext): Main {
  // First: an order with a symbol and an empty (or one-leg) legs array is no multi-leg order, and
  // "symbol: give it inside each leg" would send the sender into legs there are none of.
  const rawLegs = raw.legs ?? [];
  if (rawLegs.length < 2) throw refuse('legs', 'a multi-leg order needs at least 2 legs');
  for (const field of ['symbol', 'action'] as const) {
    if (raw[field] !== undefined) throw refuse(field, 'with a legs array, give it inside each leg');
  }
  // The top-level quantity and class are each leg's default. Used by none, they would vanish, though
  // a sender may mean the quantity as a number of combos (legs 1/1 with quantity 2 read as two
  // spreads, not one), and a class "future" over legs of class option says the sender meant another order.
  for (const [field, plural] of [
    ['quantity', 'quantities'],
    ['class', 'classes'],
  ] as const) {
    if (raw[field] !== undefined && rawLegs.every((leg) => leg[field] !== undefined)) {
      throw refuse(
        field,
        `every leg gives its own ${field}, so this one is not used; leave it out or leave out the legs' ${plural}`,
      );
    }
  }
  const legs = rawLegs.map((leg, index) => buildLeg(leg, index, raw, context));
  const [first] = legs;
  if (!first) throw refuse('legs', 'a multi-leg order needs at least 2 legs');
  return { symbol: first.symbol, class: first.class, action: first.action, quantity: first.quantity, legs };
}

function buildLeg(leg: RawLeg, index: number, raw: RawOrder, context: BuildContext): OrderLeg {
  const name = (field: string) => context.legFieldName(index, field);
  if (leg.symbol === undefined) throw refuse(name('symbol'), 'required');
  if (leg.action === undefined) throw refuse(name('action'), 'required');
  if (isExitAction(leg.action)) throw refuse(name('action'), `${leg.action} is not a leg action`);
  const classField = leg.class !== undefined ? name('class') : 'class';
  const { symbol, orderClass } = resolveSymbol(
    leg.symbol,
    leg.class ?? raw.class,
    name('symbol'),
    classField,
    context,
    opens(leg.action),
  );
  checkAction(leg.action, orderClass, name('action'));
  const quantityField = leg.quantity !== undefined ? name('quantity') : 'quantity';
  const quantityValue = leg.quantity ?? raw.quantity;
  // Named as this leg's, with the way most combos give it: one quantity on top for every leg.
  if (quantityValue === undefined) throw refuse(name('quantity'), 'required (or give quantity, for every leg)');
  const result: OrderLeg = {
    symbol,
    class: orderClass,
    action: leg.action,
    quantity: toNumber(quantityValue, quantityField),
  };
  const limitPrice = leg.limit_price === undefined ? undefined : toNumber(leg.limit_price, name('limit_price'));
  const type = leg.type ?? (limitPrice === undefined ? undefined : 'limit');
  if (type !== undefined) result.type = type;
  if (limitPrice !== undefined) result.limit_price = limitPrice;
  return result;
}

/**
 * Why a future read with a one-digit year 1 or 2 is refused: it is as likely TradingView's
 * continuous name without its "!" (NQ1, MNQ1), and either reading trades another contract. So is
 * a known root's continuous name without it (ES1, GC1), which would go to a stock broker as a ticker.
 * A ticker that reads so (ASX's AX1, GC1) goes with an explicit class.
 */
function ambiguousFuture(parsed: ParsedSymbol, text: string): string | undefined {
  if (parsed.parts.kind !== 'future' && parsed.parts.kind !== 'ticker') return undefined;
  const written = writtenSymbol(text);
  const continuous = continuousLookalike(written);
  if (!continuous) return undefined;
  if (parsed.parts.kind === 'ticker') {
    return (
      `${written} reads two ways, as the continuous contract ${continuous} without its "!" or as the ticker ${written}; ` +
      `write ${continuous} for the continuous contract, or give "class": "stock" for the ticker`
    );
  }
  return (
    `${written} reads two ways, as the continuous contract ${continuous} without its "!" or as ${parsed.canonical} ` +
    `(${contractMonth(parsed.parts)}); write ${continuous} for the continuous contract, give a dated contract a 2 or 4 digit year, ` +
    'or give "class": "stock" for a ticker'
  );
}

function contractMonth({ root, month, year }: { root: string; month: number; year: number }): string {
  const named = new Date(Date.UTC(year, month - 1)).toLocaleString('en-US', { month: 'long', timeZone: 'UTC' });
  return `root ${root}, ${named} ${year}`;
}

/** Whether an order may open a position: a close, cancel or an option's *_to_close of an expired contract passes. */
function opens(action: OrderAction): boolean {
  return !isExitAction(action) && action !== 'buy_to_close' && action !== 'sell_to_close';
}

/**
 * Why a dated contract or an option that has stopped trading is refused: no broker fills it, and a 1
 * or 2 digit year read so may be a ticker (B3's ABEV3 reads as October 2023). A close or cancel passes: it opens nothing.
 */
function expiredContract(parsed: ParsedSymbol, text: string, now: number): string | undefined {
  const written = writtenSymbol(text);
  if (parsed.parts.kind === 'option' && isOptionExpired(parsed.parts.expiry, now)) {
    const { root, right, strike, expiry } = parsed.parts;
    return `${written} (${root} ${right === 'C' ? 'call' : 'put'} ${strike}, expiring ${expiry}) has expired; send an expiry still ahead`;
  }
  if (parsed.parts.kind !== 'future' || !isContractExpired(parsed.parts, now)) return undefined;
  const shortYear = (DATED.exec(written)?.[3]?.length ?? 4) < 4;
  const month = `(${contractMonth(parsed.parts)})`;
  const read =
    written === parsed.canonical
      ? `${written} ${month} has`
      : `${written} reads as ${parsed.canonical} ${month}, which has`;
  return (
    `${read} expired; ` +
    `send a contract month still trading, or ${parsed.parts.root}1! for the front month` +
    (shortYear ? ', or give "class": "stock" for a ticker' : '')
  );
}

/**
 * Why a pair with a trading server's suffix (EURUSD.pro, XAUUSD.m) is refused where the broker does
 * not take its server's names: read as a ticker, it would go as a stock order.
 */
function serverName(text: string, provider: Provider | undefined): string | undefined {
  if (provider?.reference.symbol?.serverNames) return undefined;
  const written = symbolAfterExchange(text);
  const decorated = decoratedPairName(written);
  if (!decorated) return undefined;
  return (
    `${written} is the pair ${decorated.pair} with "${decorated.suffix}", a suffix MetaTrader and cTrader servers add to ` +
    `their names; send ${decorated.pair} (only MetaTrader and cTrader brokers take their server's names)`
  );
}

function resolveSymbol(
  text: string,
  explicit: OrderClass | undefined,
  field: string,
  classField: string,
  context: BuildContext,
  opening: boolean,
): { symbol: string; orderClass: OrderClass; exchange?: string } {
  const parsed = parseSymbol(text, { now: context.now, field });
  const exchange = parsed.exchange ? { exchange: parsed.exchange } : {};
  const asFuture = explicit === undefined || explicit === 'future';
  const continuous = asFuture ? ambiguousFuture(parsed, text) : undefined;
  if (continuous) throw refuse(field, continuous);
  const ownClass = explicit === undefined || explicit === parsed.class;
  const expired = ownClass && opening ? expiredContract(parsed, text, context.now()) : undefined;
  if (expired) throw refuse(field, expired);
  const decorated = parsed.parts.kind === 'ticker' ? serverName(text, context.provider) : undefined;
  if (decorated) throw refuse(field, decorated);
  if (explicit !== undefined) {
    // A 1 or 2 digit year reads a contract month into names that are none: B3's ABEV3 (Ambev) and
    // PFIZ34 (a BDR). An explicit class other than future says which it is; a 4-digit year does not yield.
    const written = writtenSymbol(text);
    if (explicit !== 'future' && parsed.parts.kind === 'future' && (DATED.exec(written)?.[3]?.length ?? 4) < 4) {
      return { symbol: written, orderClass: explicit, ...exchange };
    }
    if (!isClassCompatible(parsed, explicit)) {
      throw refuse(
        classField,
        `${explicit} contradicts the symbol ${parsed.canonical}, which is ${article(parsed.class)}`,
      );
    }
    // A CFD is named by its broker, never a contract month: HK50 and EU50 are the Hang Seng and
    // Euro Stoxx 50, not futures of May and September 2050.
    const cfdName = explicit === 'cfd' && parsed.parts.kind === 'future';
    return { symbol: cfdName ? written : parsed.canonical, orderClass: explicit, ...exchange };
  }
  if (parsed.recognized) return { symbol: parsed.canonical, orderClass: parsed.class, ...exchange };
  // A plain ticker is stock, unless the provider trades no stock (a crypto exchange's "DOGE").
  const classes = context.provider?.reference.class?.values as OrderClass[] | undefined;
  const fallback = classes && classes.length > 0 && !classes.includes('stock') ? sortClasses(classes)[0] : undefined;
  return { symbol: parsed.canonical, orderClass: fallback ?? 'stock', ...exchange };
}

function checkAction(action: OrderAction, orderClass: OrderClass, field: string): void {
  if (isActionValidForClass(action, orderClass)) return;
  const allowed = orderClass === 'option' ? OPTION_ACTIONS : NON_OPTION_ACTIONS;
  throw refuse(
    field,
    `${action} is not an action for ${orderClass === 'option' ? 'options' : orderClass}; use ${allowed.join(', ')}`,
  );
}

function article(orderClass: OrderClass): string {
  return `${/^[aeiou]/.test(orderClass) ? 'an' : 'a'} ${orderClass}`;
}

// biome-ignore format: one line per group of fields
const FIELD_ORDER: ReadonlyArray<keyof Order> = [
  'symbol', 'exchange', 'class', 'action', 'quantity', 'quantity_type', 'type', ...NUMERIC_FIELDS,
  'duration', 'client_id', 'parent_id', 'group', 'legs', 'extra',
];

/** Fields in SPEC order, so an echoed order reads like the documentation. */
function reorder(order: Order): Order {
  const sorted: Record<string, unknown> = {};
  for (const key of FIELD_ORDER) if (order[key] !== undefined) sorted[key] = order[key];
  return sorted as unknown as Order;
}
