// The limits that need the broker: maxNotional of an order without a price of its own (valued at
// the broker's last price) and maxPosition (the position per symbol after the order, from the
// positions the broker reports). Pure: brokerNeeds says what to ask, so a hook whose order needs
// nothing makes no broker call; checkWithBroker judges the answers.
import type { Holding } from '@router/brokers';
import { type Order, type OrderAction, parseSymbol } from '@router/orders';
import {
  contractMultiplier,
  futureRefusal,
  overNotional,
  ownPrice,
  type RuleRefusal,
  refusal,
  valuedByLegs,
} from './check.ts';
import type { CompiledRules } from './compile.ts';
import { exchangeName, routedExchange } from './exchange-name.ts';

/** What to ask the broker before the order may go; undefined: nothing. */
export interface BrokerNeeds {
  /** The last price of the order's symbol (maxNotional of a market order, maxPosition of a cash quantity). */
  quote: boolean;
  /** The account's positions (maxPosition). */
  positions: boolean;
}

export interface BrokerFacts {
  lastPrice?: number;
  positions?: readonly Holding[];
  equity?: number;
}

const BUYS: ReadonlySet<OrderAction> = new Set(['buy', 'buy_to_cover', 'buy_to_open', 'buy_to_close']);
/** close and cancel never grow a position. */
const placesQuantity = (order: Order) => order.action !== 'close' && order.action !== 'cancel';
/** The actions that trade a position held the other way towards flat (sell_short and *_to_open open one). */
const MAY_REDUCE: ReadonlySet<OrderAction> = new Set(['sell', 'sell_to_close', 'buy', 'buy_to_cover', 'buy_to_close']);
/**
 * The limits an order of the size of a position need not pass when it only takes that position
 * towards flat: the sizes, and the symbols list (a symbol taken off it can still be left).
 */
const WAY_OUT_RULES: ReadonlySet<string> = new Set(['symbols', 'maxQuantity', 'maxNotional']);

/**
 * The order's own price does not bound what it fills at: a sell limit (or stop-limit) fills at or
 * above its limit and a buy stop at or above its stop, at the market when the market is already
 * past them: a sell limit at 0.01 sells at the bid, a buy stop at 0.01 buys at the ask. A buy
 * limit (at most its limit) and a sell stop (triggered at or below its stop) are bounded.
 */
export const fillsPastItsPrice = (order: Order): boolean =>
  BUYS.has(order.action) ? order.type === 'stop' : order.type === 'limit' || order.type === 'stop_limit';

/**
 * `quotes`: the broker quotes a last price (has.lastPrice). A maxNotional of an order without a
 * price asks it; so does one whose price does not bound its fill, where the broker quotes one.
 */
export function brokerNeeds(rules: CompiledRules, order: Order, quotes = false): BrokerNeeds | undefined {
  const unpriced = ownPrice(order) === undefined;
  const notional =
    (notionalHere(rules, order) !== undefined && (unpriced || (quotes && fillsPastItsPrice(order)))) ||
    (quotes && cashPastItsPrice(rules, order) !== undefined);
  const positions = rules.maxPosition !== undefined && placesQuantity(order);
  const sizedByMoney = order.quantity_type === 'cash' || order.quantity_type === 'percent_of_equity';
  const quote = notional || (positions && sizedByMoney && !order.legs?.length && unpriced);
  return quote || positions ? { quote, positions } : undefined;
}

/**
 * maxNotional of a fixed size valued here, at the order's own price or the broker's last price:
 * the size and the maximum, or undefined. A multi-leg order without a price of its own (or at a
 * net 0) is valued by its legs' prices (check.ts): one symbol's last price values none of them.
 */
function notionalHere(rules: CompiledRules, order: Order): { quantity: number; max: number } | undefined {
  if (rules.maxNotional === undefined || order.quantity_type !== 'fixed' || order.quantity === undefined) return;
  if (!placesQuantity(order) || valuedByLegs(order)) return;
  return { quantity: order.quantity, max: rules.maxNotional };
}

/**
 * maxNotional of a cash amount at a price that does not bound its fill (fillsPastItsPrice): the
 * amount buys (or sells) amount / price units, filled at the market when that is past the price
 * (5,000 to sell at a limit of 0.01 is 500,000 shares, sold at the bid). The amount, its price and
 * the maximum, or undefined.
 */
function cashPastItsPrice(rules: CompiledRules, order: Order) {
  const own = ownPrice(order);
  if (rules.maxNotional === undefined || order.quantity_type !== 'cash' || order.quantity === undefined) return;
  if (own === undefined || !(own > 0) || order.legs?.length || !fillsPastItsPrice(order)) return;
  return { amount: Math.abs(order.quantity), own, max: rules.maxNotional };
}

export function checkWithBroker(rules: CompiledRules, order: Order, facts: BrokerFacts): RuleRefusal | undefined {
  const cash = cashPastItsPrice(rules, order);
  if (cash && facts.lastPrice !== undefined && facts.lastPrice > cash.own) {
    const over = overNotional((cash.amount * facts.lastPrice) / cash.own, cash.max);
    if (over) return over;
  }
  const own = ownPrice(order);
  const price = own ?? facts.lastPrice;
  const notional = notionalHere(rules, order);
  // Valued at the market when that is past the order's price and the fill follows it there.
  const worth =
    own !== undefined && facts.lastPrice !== undefined && fillsPastItsPrice(order)
      ? Math.max(own, facts.lastPrice)
      : price;
  if (notional && worth !== undefined) {
    const multiplier = contractMultiplier(order);
    const over =
      multiplier === undefined
        ? futureRefusal(order)
        : overNotional(Math.abs(notional.quantity * worth * multiplier), notional.max);
    if (over) return over;
  }
  if (rules.maxPosition === undefined || !facts.positions || !placesQuantity(order)) return undefined;
  return checkPosition(order, rules.maxPosition, facts, price);
}

/**
 * Symbols compared as instruments, however the broker writes them: case and separators aside
 * (`SPY_2612…`, `BTC/USD`), in the order language's canonical spelling (ESZ5 is ESZ2025, XBTUSD
 * is BTC/USD; ccxt's swap BTC/USD:BTC is BTC/USD). A continuous future (ES1!) stands for any
 * contract of its root. `coin`: the coin a crypto pair trades (BTC of BTC/USD); `balance`: the
 * coin a bare currency code names (XBT is BTC): a spot exchange reports what is held as balances
 * per currency, so the BTC balance is the BTC/USD (and BTC/USDT) position.
 */
function instrumentKey(symbol: string): {
  key: string;
  root?: string;
  continuous?: boolean;
  coin?: string;
  balance?: string;
  exchange?: string;
} {
  // Saxo names a position by its listing, the exchange after the ticker in lower case (AAPL:xnas,
  // BRKb:xnys): read as the exchange AAPL's ticker XNAS, it matched no signal's symbol.
  const listed = /^([^:]+):([a-z][a-z0-9]*)$/.exec(symbol.trim());
  if (listed?.[1] && listed[2]) return { ...instrumentKey(listed[1]), exchange: exchangeName(listed[2]) };
  const plain = (text: string) => text.toUpperCase().replace(/[^A-Z0-9]/g, '');
  const market = symbol.replace(/^([^:/]+\/[^:/]+):[A-Za-z0-9]+$/, '$1');
  try {
    const { canonical, parts } = parseSymbol(market);
    if (parts.kind === 'pair') return { key: plain(canonical), ...coinOf(parts.base, canonical) };
    if (parts.kind === 'ticker') {
      const { coin } = coinOf(parts.ticker);
      return { key: plain(canonical), ...(coin ? { balance: coin } : {}) };
    }
    if (parts.kind !== 'future' && parts.kind !== 'continuous_future') return { key: plain(canonical) };
    return { key: plain(canonical), root: parts.root, continuous: parts.kind === 'continuous_future' };
  } catch {
    return { key: plain(symbol) };
  }
}

/** The coin `code` names (aliases read: XBT is BTC) when it is one, as a crypto pair's base. */
function coinOf(code: string, pair?: string): { coin?: string } {
  try {
    const parsed = parseSymbol(pair ?? `${code}/USD`);
    return parsed.class === 'crypto' && parsed.parts.kind === 'pair' ? { coin: parsed.parts.base } : {};
  } catch {
    return {};
  }
}

/**
 * The position held in `symbol`'s instrument: every position of it (of a continuous future: of its
 * root) counts; with `exchange`, only those on that exchange where the broker names one.
 */
function heldIn(holdings: readonly Holding[], exchange?: string): (symbol: string) => number {
  const positions = holdings.map((p) => ({ ...instrumentKey(p.symbol), quantity: p.quantity }));
  return (symbol: string) => {
    const wanted = instrumentKey(symbol);
    return positions
      .filter((p) => exchange === undefined || p.exchange === undefined || p.exchange === exchange)
      .filter(
        (p) =>
          p.key === wanted.key ||
          (wanted.continuous && p.root === wanted.root) ||
          (wanted.coin !== undefined && p.balance === wanted.coin),
      )
      .reduce((sum, p) => sum + p.quantity, 0);
  };
}

/**
 * A refusal by symbols, maxQuantity or maxNotional that the position may lift: the order (one symbol, a
 * fixed or percent_of_position quantity) sells or buys back, so it is the way out of a position
 * held the other way if there is one. Only then are the positions asked (wayOut judges them).
 */
export const mayBeWayOut = (refused: RuleRefusal, order: Order): boolean =>
  WAY_OUT_RULES.has(refused.rule) &&
  MAY_REDUCE.has(order.action) &&
  !order.legs?.length &&
  order.quantity !== undefined &&
  (order.quantity_type === 'fixed' || order.quantity_type === 'percent_of_position');

/**
 * The order only takes the position the broker holds towards flat (a sell of at most the long
 * held, a buy of at most the short), so it cannot open or grow anything: as maxPosition lets the
 * way out through, maxQuantity and maxNotional do too.
 */
export function wayOut(order: Order, positions: readonly Holding[]): boolean {
  // Saxo trades the listing extra.exchange names: a sell there is no way out of a long held on
  // another listing (it opens a short on this one).
  const held = heldIn(positions, routedExchange(order))(order.symbol);
  const quantity = units(order, held, {}, undefined);
  if (held === 0 || quantity === undefined) return false;
  const towardsFlat = BUYS.has(order.action) ? held < 0 : held > 0;
  return towardsFlat && quantity <= Math.abs(held) + 1e-9;
}

/**
 * Saxo holds a position per listing and trades the one extra.exchange names, whose name may not be
 * the one its positions give (NASDAQ, xnas): the order is judged against the positions of every
 * listing and against those of its own, and refused if either would be past the maximum (a sell
 * on XETR of the long held on Nasdaq is a new short there).
 */
function checkPosition(order: Order, max: number, facts: BrokerFacts, price: number | undefined) {
  const positions = facts.positions ?? [];
  const routed = routedExchange(order);
  const views = routed === undefined ? [heldIn(positions)] : [heldIn(positions), heldIn(positions, routed)];
  for (const held of views) {
    const over = positionOver(order, max, facts, price, held);
    if (over) return over;
  }
  return undefined;
}

function positionOver(
  order: Order,
  max: number,
  facts: BrokerFacts,
  price: number | undefined,
  held: (symbol: string) => number,
) {
  // A leg's quantity is what it trades (the order's quantity is only its first leg's).
  const changes = order.legs?.length
    ? order.legs.map((leg) => ({ symbol: leg.symbol, action: leg.action, quantity: leg.quantity }))
    : [{ symbol: order.symbol, action: order.action, quantity: units(order, held(order.symbol), facts, price) }];
  for (const change of changes) {
    if (change.quantity === undefined) {
      return refusal(
        'maxPosition',
        `a ${order.quantity_type} quantity cannot be sized without a price; send a limit price or a fixed quantity`,
      );
    }
    const before = held(change.symbol);
    const after = before + (BUYS.has(change.action) ? change.quantity : -change.quantity);
    // An order that only shrinks a position too large already is let through: it is the way out.
    // One that turns it round is not (long 100 to short 90 is a new short, past a maximum of 50).
    const turned = Math.sign(after) === -Math.sign(before) && after !== 0;
    if (Math.abs(after) > max && (Math.abs(after) > Math.abs(before) || turned)) {
      return refusal(
        'maxPosition',
        `${change.symbol} position would be ${round(after)} (now ${round(before)}), more than this webhook's maximum of ${max}`,
      );
    }
  }
  return undefined;
}

/** The order's quantity in units of the symbol; undefined when it cannot be known here. */
function units(order: Order, held: number, facts: BrokerFacts, price: number | undefined): number | undefined {
  const q = Math.abs(order.quantity ?? 0);
  // A unit's value: an option contract is 100 times its price; a future's unknown point value
  // counts as 1, which can only make more contracts of the amount than the broker will.
  const unit = price ? price * (contractMultiplier(order) ?? 1) : undefined;
  switch (order.quantity_type) {
    case 'fixed':
      return q;
    case 'percent_of_position':
      return (Math.abs(held) * q) / 100;
    case 'cash':
      return unit ? q / unit : undefined;
    case 'percent_of_equity':
      return unit && facts.equity !== undefined ? (facts.equity * q) / 100 / unit : undefined;
  }
}

const round = (n: number): number => Math.round(n * 1e4) / 1e4;
