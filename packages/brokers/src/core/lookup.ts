// Finding an order again (reconciliation after a lost answer, a cancel by client id). The caller
// always passes everything it knows, as nautilus_trader's order status report does; each broker
// answers with the strongest identifier its API takes (core/find-order.ts picks the route).
import type { Order, OrderResponse } from '@router/orders';

export interface OrderLookup {
  accountId: string;
  /** Our signal id, sent as the broker's client order id wherever it keeps one. */
  clientOrderId: string;
  /** The broker's order id, when the placing call answered with one. */
  brokerOrderId?: string;
  /** The order as it was sent. */
  order?: Order;
  /** When it was sent (ms since epoch). */
  sentAt?: number;
  /**
   * The broker's ids of orders other signals of the account are known to have placed around then:
   * an order with the same terms that is one of them is theirs, never ours.
   */
  otherOrderIds?: readonly string[];
}

export type OrderLookupResult =
  /** exact: found by an id the broker stores; probable: by terms and time. */
  | { match: 'exact' | 'probable'; order: OrderResponse }
  /** The broker's answer proves there is no such order. */
  | { match: 'none' }
  /** This broker cannot tell with what we know. */
  | { match: 'unknown'; reason: string };

/** What `listRecentOrders` is asked: the lookup and the window of entry times to list. */
export interface RecentOrdersQuery extends OrderLookup {
  from: number;
  to: number;
}

/**
 * An order of the window that may be ours. `id`: it carries our client order id (echoed back
 * by the broker); `terms`: same instrument, side, quantity, type and prices as `order`.
 */
export interface ListedOrder {
  order: OrderResponse;
  match: 'id' | 'terms';
}

/** How far around `sentAt` a lost order is looked for: clocks drift, brokers queue. */
export const LOOKUP_WINDOW_BEFORE_MS = 60_000;
export const LOOKUP_WINDOW_AFTER_MS = 5 * 60_000;

/** cancelOrder's target: the broker's id, or ours (found first through the lookup). */
export interface CancelTarget {
  accountId: string;
  brokerOrderId?: string;
  clientOrderId?: string;
}
