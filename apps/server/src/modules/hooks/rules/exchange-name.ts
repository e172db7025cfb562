// Saxo names one listing two ways (WIRE.md §4): by its ExchangeId (NASDAQ), as its instrument
// search answers and extra.exchange is documented ("NASDAQ, NYSE"), and by its market identifier
// code after the ticker, in the symbols of its instruments and positions (AAPL:xnas). Compared
// as written, a sell of the Nasdaq long on extra.exchange NASDAQ found nothing held on "NASDAQ"
// (positions say xnas): no way out, and maxPosition refused it as a new short; and on xnas,
// symbols' NASDAQ:AAPL did not allow it. Exchanges are compared by the ExchangeId.
import type { Order } from '@router/orders';

/** Saxo's listing codes (the lower-case suffix of its symbols) and the ExchangeId of each. */
const EXCHANGE_ID_OF_CODE: Readonly<Record<string, string>> = {
  XNAS: 'NASDAQ',
  XNYS: 'NYSE',
  ARCX: 'ARCA',
  XCSE: 'CSE',
  XCME: 'CME',
  XEUR: 'EUREX',
};

/** An exchange's name upper-cased, a listing code read as the exchange it names (xnas: NASDAQ). */
export function exchangeName(name: string): string {
  const upper = name.trim().toUpperCase();
  return Object.hasOwn(EXCHANGE_ID_OF_CODE, upper) ? (EXCHANGE_ID_OF_CODE[upper] ?? upper) : upper;
}

/** The exchange Saxo trades the order on (extra.exchange), as exchangeName; undefined: none named. */
export const routedExchange = (order: Pick<Order, 'extra'>): string | undefined =>
  order.extra?.exchange === undefined ? undefined : exchangeName(String(order.extra.exchange));
