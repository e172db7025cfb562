// Multi-leg orders: options on one underlying (verticals, straddles, iron condors...), filled
// together at the net price of their legs. The order's quantity is the number of combo units
// (the greatest common divisor of the leg quantities); `limit_price` is the net per unit:
// positive for a debit paid, negative for a credit received. A limit combo rests until the net
// is at or below its limit, and fills at the legs' market prices then.

import { EXIT_FIELDS } from '@router/orders';
import { roundToTick } from '../../core/ticks.ts';
import type { Book } from './book.ts';
import type { Instrument } from './instruments.ts';
import { executionPrice } from './matching.ts';
import { baseOrder, checkTrade, DURATIONS, invalid, type PlaceRequest, rest, tradable } from './placing.ts';
import { roundCash } from './precision.ts';
import { comboPrice, sweep } from './sweep.ts';
import { fill } from './trading.ts';
import type { PaperLeg, PaperOrder } from './types.ts';

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

export async function placeCombo(book: Book, request: PlaceRequest): Promise<PaperOrder> {
  const { order } = request;
  const legs = order.legs ?? [];
  const instruments: Instrument[] = legs.map((leg) => tradable(book, leg.symbol, leg.class));
  // Each leg is checked against what is held alone: two sales of one contract would sell it twice.
  const twice = instruments.find(
    (instrument, i) => instruments.findIndex((other) => other.symbol === instrument.symbol) < i,
  );
  if (twice) throw invalid(`${twice.symbol} is in two legs: give each contract once, with its whole quantity`);
  const underlyings = new Set(instruments.map((instrument) => instrument.option?.underlying.symbol));
  if (underlyings.has(undefined) || underlyings.size > 1) {
    throw invalid('multi-leg orders are supported for options on one underlying');
  }
  if (order.type !== 'market' && order.type !== 'limit') throw invalid('multi-leg orders are market or limit orders');
  // The combo trades at its net: a leg's own type or price would be dropped, so it is refused.
  if (legs.some((leg) => leg.limit_price !== undefined || leg.type !== undefined))
    throw invalid('legs take no type or price: give the net price as limit_price');
  if (EXIT_FIELDS.some((field) => order[field] !== undefined))
    throw invalid('take profit and stop loss do not apply to multi-leg orders');
  if (order.quantity_type !== 'fixed') throw invalid('multi-leg orders take a fixed quantity per leg');
  if (!DURATIONS.has(order.duration)) throw invalid(`duration ${order.duration} is not supported`);
  if (!legs.every((leg) => Number.isInteger(leg.quantity) && leg.quantity > 0))
    throw invalid('leg quantities must be whole contracts');
  const units = legs.reduce((divisor, leg) => gcd(divisor, leg.quantity), 0);
  const [first] = instruments;
  if (!first) throw invalid('a multi-leg order needs legs');
  await sweep(
    book,
    instruments.map((instrument) => instrument.symbol),
  );

  const paperLegs: PaperLeg[] = legs.map((leg, i) => ({
    symbol: instruments[i]?.symbol ?? leg.symbol,
    class: leg.class,
    action: leg.action,
    side: leg.action.startsWith('buy') ? 'buy' : 'sell',
    ratio: leg.quantity / units,
  }));
  const paper: PaperOrder = {
    ...baseOrder(book, request, first.symbol),
    side: 'buy',
    quantity: units,
    type: order.type,
    legs: paperLegs,
  };
  if (order.type === 'limit') {
    if (order.limit_price === undefined || !Number.isFinite(order.limit_price))
      throw invalid('limit_price (the net price per combo) is required for limit orders');
    // The net per unit in cents, never past the trader's: a combo fills at a net at or below it.
    paper.limitPrice = roundToTick(order.limit_price, 0.01, 'down');
  }
  const net = comboPrice(book, paper, book.market.now);
  await checkTrade(book, paper, net);
  const now = executionPrice(paper, net, false, false);
  if (now.price !== undefined) {
    await fill(book, paper, book.market.now, now.price);
    return paper;
  }
  // Held while it rests: what the legs would use now, and a debit above today's net.
  const what = `${paperLegs.length}-leg combo ×${units}`;
  const limit = paper.limitPrice ?? net;
  const rested = rest(book, paper, net, what, net);
  if (rested.status === 'open') {
    const extra = Math.max(0, limit - net) * units * first.multiplier;
    rested.reservation = roundCash(rested.reservation + extra);
    book.account.reserved = roundCash(book.account.reserved + extra);
    rested.statusDescription = `Accepted: ${what} at a net ${limit} (${order.duration})`;
  }
  return rested;
}
