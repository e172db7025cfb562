// The paper broker's state, as a PaperStore keeps it. Plain JSON-serializable data, so a
// PostgreSQL store can keep an account as a row (positions as JSON) and orders as rows.
import type { Duration, OrderAction, OrderClass, OrderType } from '@router/orders';

export interface PaperPosition {
  symbol: string;
  class: OrderClass;
  /** Negative for a short position. */
  quantity: number;
  averagePrice: number;
}

export interface PaperAccount {
  id: string;
  name: string;
  currency: 'USD';
  startingCash: number;
  /** Ledger cash; proceeds of short sales included. */
  cash: number;
  positions: PaperPosition[];
  /**
   * Per-symbol factor applied to the synthetic quote, set from the last price a signal carried
   * (`extra.price`), so resting orders move around the user's real price, not a made-up one.
   */
  priceScales: Record<string, number>;
  createdAt: number;
  /** Buying power held by the open orders (the sum of their reservations). */
  reserved: number;
  /** Last order number used; order ids are `<account code>-<number>`. */
  orderSequence: number;
  /**
   * Open orders selling calls to open, per underlying: a sale of its shares reads them (the shares
   * cover them). Absent: an account written before the count, counted at its next call (book.ts).
   */
  openCallSales?: Record<string, number>;
  /** When the account was last reset to its starting cash; fills before it are history. */
  resetAt?: number;
}

/**
 * The resting orders of one symbol (an order's `symbol`; a multi-leg order's first leg), so a
 * call sweeps only the symbols it touches and reads only the orders the market reached.
 */
export interface PaperSymbolState {
  symbol: string;
  class: OrderClass;
  /** Resting orders were evaluated at every minute boundary up to this instant (ms). */
  sweptAt: number;
  /** Open orders of the symbol. */
  open: number;
  /** Of them, multi-leg orders (their later legs trade other symbols); absent: not counted (a state written before). */
  combos?: number;
  /** No open order of the symbol expires before this instant (day orders); absent: none expires. */
  expiresAt?: number;
}

/** One leg of a multi-leg order: its share per unit of the order (`ratio`) and its own side. */
export interface PaperLeg {
  symbol: string;
  class: OrderClass;
  action: OrderAction;
  side: 'buy' | 'sell';
  ratio: number;
  fillPrice?: number;
}

/** open: resting; the others are final. */
export type PaperOrderStatus = 'open' | 'filled' | 'canceled' | 'rejected';

export interface PaperOrder {
  id: string;
  accountId: string;
  /** Our signal id (the router's client order id); unique per account. */
  clientOrderId?: string;
  symbol: string;
  class: OrderClass;
  action: OrderAction;
  side: 'buy' | 'sell';
  quantity: number;
  type: OrderType;
  limitPrice?: number;
  stopPrice?: number;
  duration: Duration;
  status: PaperOrderStatus;
  statusDescription: string;
  /** stop_limit only: the stop was hit, the order now rests as a limit order. */
  triggered?: boolean;
  fillPrice?: number;
  filledAt?: number;
  createdAt: number;
  /** Day orders: canceled when still open at this instant. */
  expiresAt?: number;
  /** Buying power held while the order is open (orders that open or grow a position). */
  reservation: number;
  /** Multi-leg orders: the legs, filled together; prices are net per unit (negative: a credit). */
  legs?: PaperLeg[];
  /** Exits to create when this order fills (a bracket's take profit and stop loss). */
  bracket?: PaperBracket;
  /** Exit orders: the entry they belong to, and the other exit (one cancels the other). */
  parentId?: string;
  ocoId?: string;
}

export interface PaperBracket {
  takeProfitPrice?: number;
  stopLossPrice?: number;
  stopLossDistance?: number;
  stopLossPercent?: number;
}

// Copies by hand: the state is plain data, and structuredClone costs more than the whole
// simulation on the hook's path.
export function copyAccount(account: PaperAccount): PaperAccount {
  return {
    ...account,
    positions: account.positions.map((position) => ({ ...position })),
    priceScales: { ...account.priceScales },
    ...(account.openCallSales ? { openCallSales: { ...account.openCallSales } } : {}),
  };
}

export function copyOrder(order: PaperOrder): PaperOrder {
  const copy = { ...order };
  if (order.bracket) copy.bracket = { ...order.bracket };
  if (order.legs) copy.legs = order.legs.map((leg) => ({ ...leg }));
  return copy;
}
