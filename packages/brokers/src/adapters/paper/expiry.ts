// Contracts held through their expiry are settled at the next call on the account, as a broker
// settles them overnight. A dated future closes at its settlement price (its P&L realized, its
// margin freed), as a cash-settled index future does. An option out of the money they expire worthless and leave the positions; in the
// money they turn into shares at the strike (a short one is assigned, always: what it held pays
// for it; a long one is exercised when the account can pay for the shares, or deliver them for a
// put, else it is sold for its intrinsic value, as a broker sells what its account cannot exercise).
import { type Book, instrumentOf, marksAt, nextOrderId, priceAt, symbolState, track } from './book.ts';
import type { Instrument } from './instruments.ts';
import { applyFill, buyingPower, heldQuantity, powerUsed, type Trade } from './portfolio.ts';
import { sweep } from './sweep.ts';
import { fitExits } from './trading.ts';
import type { PaperOrder, PaperPosition } from './types.ts';

/** A filled record of a settlement, at the expiry. */
function settled(book: Book, instrument: Instrument, quantity: number, price: number, note: string): PaperOrder {
  const side = quantity > 0 ? 'buy' : 'sell';
  const action = instrument.class === 'option' ? (side === 'buy' ? 'buy_to_close' : 'sell_to_close') : side;
  const at = instrument.expiresAt ?? book.market.now;
  const order: PaperOrder = {
    id: nextOrderId(book),
    accountId: book.account.id,
    symbol: instrument.symbol,
    class: instrument.class,
    action,
    side,
    quantity: Math.abs(quantity),
    type: 'market',
    duration: 'day',
    status: 'filled',
    statusDescription: note,
    createdAt: at,
    fillPrice: price,
    filledAt: at,
    reservation: 0,
  };
  track(book, order);
  return order;
}

/** Whether a long option in the money can be exercised: cash for a call's shares, the shares for a put. */
function canExercise(book: Book, trades: readonly Trade[], shares: Trade): boolean {
  if (shares.quantity < 0) return heldQuantity(book.account, shares.instrument) >= -shares.quantity - 1e-9;
  const marks = marksAt(book, book.market.now);
  return powerUsed(book.account, trades, marks).used <= buyingPower(book.account, marks) + 1e-6;
}

async function settle(book: Book, position: PaperPosition, instrument: Instrument): Promise<void> {
  const { option, expiresAt = book.market.now } = instrument;
  const close: Trade = { instrument, quantity: -position.quantity, price: priceAt(book, instrument, expiresAt) };
  const contracts = Math.abs(position.quantity);
  if (!option) {
    applyFill(book.account, close);
    const side = close.quantity > 0 ? 'bought' : 'sold';
    settled(
      book,
      instrument,
      close.quantity,
      close.price,
      `Settled at expiry: ${side} ${contracts} ${instrument.symbol} at ${close.price}`,
    );
    return;
  }
  if (close.price <= 0) {
    applyFill(book.account, close);
    settled(book, instrument, close.quantity, 0, `Expired worthless: ${contracts} ${instrument.symbol}`);
    return;
  }
  // A call delivers the shares to its holder, a put to its writer: at the strike.
  const { underlying, strike, right } = option;
  const units = position.quantity * instrument.multiplier * (right === 'C' ? 1 : -1);
  const shares: Trade = { instrument: underlying, quantity: units, price: strike };
  const exercise: Trade = { ...close, price: 0 };
  const long = position.quantity > 0;
  if (long && !canExercise(book, [exercise, shares], shares)) {
    applyFill(book.account, close);
    const why = right === 'C' ? 'not enough buying power to exercise' : `not enough ${underlying.symbol} to deliver`;
    settled(book, instrument, close.quantity, close.price, `Expired in the money: sold at ${close.price} (${why})`);
    return;
  }
  // What the market reached on the shares before the expiry comes first (a covered call's shares
  // sold by their stop loss leave the call to be assigned into a short).
  if (((await symbolState(book, underlying.symbol))?.sweptAt ?? expiresAt) < expiresAt) {
    const { now } = book.market;
    book.market.now = expiresAt;
    try {
      await sweep(book, [underlying.symbol]);
    } finally {
      book.market.now = now;
    }
  }
  const before = heldQuantity(book.account, underlying);
  applyFill(book.account, exercise);
  applyFill(book.account, shares);
  // Shares called away take their bracket's exits with them, as every sale does.
  await fitExits(book, underlying, before);
  const what = `${units > 0 ? 'bought' : 'sold'} ${Math.abs(units)} ${underlying.symbol} at the strike ${strike}`;
  const how = long ? 'Exercised' : 'Assigned';
  settled(book, instrument, close.quantity, 0, `${how} at expiry: ${what}`);
  settled(book, underlying, units, strike, `Filled: ${what} (${instrument.symbol} ${how.toLowerCase()})`);
}

/** Settles the options and dated futures held past their expiry (on an account that holds none, nothing). */
export async function settleExpired(book: Book): Promise<void> {
  const { now } = book.market;
  for (const position of [...book.account.positions]) {
    if (position.class !== 'option' && position.class !== 'future') continue;
    const instrument = instrumentOf(book, position.symbol, position.class);
    if (instrument.expiresAt !== undefined && instrument.expiresAt <= now) await settle(book, position, instrument);
  }
}
