// Finding an order again at brokers that keep no client order id (Schwab, Trading 212). The
// contract's getOrder(clientOrderId) cannot work there: nothing at the broker carries our id.
// Adapters of such brokers accept this hint as an optional fifth argument of getOrder; the
// server passes what it knows of the signal. Without a hint they answer null.
import type { Order } from '@router/orders';

export interface OrderHint {
  /** The broker's order id, when the placing call answered with one. */
  brokerOrderId?: string;
  /**
   * The order as it was sent and when (ms since epoch): after a lost answer the adapter looks
   * for an order of the same instrument, side, quantity, type and prices entered around then.
   */
  order?: Order;
  sentAt?: number;
}

/** How far around `sentAt` a lost order is looked for: clocks drift, brokers queue. */
export const ORDER_HINT_WINDOW_BEFORE_MS = 60_000;
export const ORDER_HINT_WINDOW_AFTER_MS = 5 * 60_000;
