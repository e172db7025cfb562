// Display data of the enumerations in types.ts (SPEC §3 "Enumerations"): sort weights, labels,
// example symbols and the meaning of each duration code. The docs screen and playground read these.
import type { Duration, OrderAction, OrderClass, OrderType, QuantityType } from './types.ts';

export interface OrderClassInfo {
  /** Sort weight of SPEC §3: lower comes first in selectors. */
  weight: number;
  label: string;
  /** Example symbols; the first is what the playground puts in when the class is chosen. */
  examples: readonly string[];
}

export const ORDER_CLASS_INFO: Readonly<Record<OrderClass, OrderClassInfo>> = {
  stock: { weight: 1, label: 'Stock', examples: ['AAPL', 'MSFT', 'BRK.B'] },
  forex: { weight: 11, label: 'Forex', examples: ['EURUSD', 'GBP/JPY', 'USD_CAD'] },
  crypto: { weight: 12, label: 'Crypto', examples: ['BTCUSD', 'ETH/USDT', 'XBTUSD'] },
  cfd: { weight: 13, label: 'CFD', examples: ['US500', 'DE40', 'UK100'] },
  commodity: { weight: 14, label: 'Commodity', examples: ['XAUUSD', 'XAGUSD'] },
  future: { weight: 21, label: 'Future', examples: ['ES1!', 'ESZ2025', 'NQH26'] },
  option: { weight: 22, label: 'Option', examples: ['AAPL  271217C00200000', 'SPY_271217P00500000', 'AAPL271217C200'] },
  warrant: { weight: 23, label: 'Warrant', examples: ['IPOF.WS', 'TSLA.WT'] },
  fund: { weight: 31, label: 'Fund', examples: ['VFIAX', 'SPY'] },
  index: { weight: 32, label: 'Index', examples: ['SPX', 'NDX', 'VIX'] },
  bond: { weight: 33, label: 'Bond', examples: ['912828YK0', 'US912828YK04'] },
};

/** Classes ordered by their SPEC sort weight (stock first, bond last). */
export function sortClasses(classes: readonly OrderClass[]): OrderClass[] {
  return [...classes].sort((a, b) => ORDER_CLASS_INFO[a].weight - ORDER_CLASS_INFO[b].weight);
}

export const ORDER_TYPE_LABELS: Readonly<Record<OrderType, string>> = {
  market: 'Market',
  limit: 'Limit',
  stop: 'Stop',
  stop_limit: 'Stop limit',
};

/** Option orders take only these four actions (SPEC §3). */
export const OPTION_ACTIONS = ['buy_to_open', 'buy_to_close', 'sell_to_open', 'sell_to_close'] as const;
/** Every other class takes these. */
export const NON_OPTION_ACTIONS = ['buy', 'sell', 'buy_to_cover', 'sell_short', 'close', 'cancel'] as const;

export function actionsForClass(orderClass: OrderClass): readonly OrderAction[] {
  return orderClass === 'option' ? OPTION_ACTIONS : NON_OPTION_ACTIONS;
}

export function isActionValidForClass(action: OrderAction, orderClass: OrderClass): boolean {
  return actionsForClass(orderClass).includes(action);
}

/** Quantity and type are not needed to close a position or cancel its orders. */
export function isExitAction(action: OrderAction): action is 'close' | 'cancel' {
  return action === 'close' || action === 'cancel';
}

export const QUANTITY_TYPE_MEANINGS: Readonly<Record<QuantityType, string>> = {
  fixed: 'a number of shares, contracts, lots or coins',
  percent_of_equity: 'percent of the account equity (50 means 50 %)',
  cash: 'an amount of the account currency',
  percent_of_position: 'percent of the current position (100 closes it)',
};

export const DURATION_MEANINGS: Readonly<Record<Duration, string>> = {
  atc: 'at the close: executes in the closing auction',
  ato: 'at the open: executes in the opening auction',
  aon: 'all or none: fills completely or not at all',
  clo: 'on close: executes as near the close as possible',
  cls: 'on close: executes at the closing price',
  day: 'current trading day: expires at the end of the session',
  fak: 'fill and kill: fills what it can at once, cancels the rest',
  fok: 'fill or kill: fills completely at once or is canceled',
  gfa: 'good for auction: valid for the next auction only',
  gtc: 'good till canceled: stays open until filled or canceled',
  gtd: 'good till date: expires at the end of a given date',
  gtt: 'good till time: expires at a given time',
  gtw: 'good this week: expires at the end of the week',
  gtm: 'good this month: expires at the end of the month',
  ioc: 'immediate or cancel: fills what it can at once, cancels the rest',
  opg: 'at the opening: executes at the market open only',
  dyp: 'day plus: current trading day including extended hours',
  gcp: 'good till canceled plus: includes extended hours, 90 calendar days max',
};
