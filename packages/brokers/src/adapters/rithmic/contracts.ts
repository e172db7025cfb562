// Futures contracts as Rithmic names them (WIRE.md §2: symbol "ESZ4", exchange "CME"): root,
// month code, one-digit year, and the exchange the root trades on unless the symbol names it
// (CME:6EH2027). Continuous symbols would need the ticker plant's front-month request, which this
// adapter does not log in to: they are refused with what to send instead.
import type { Order } from '@router/orders';
import { parseSymbol } from '@router/orders';
import { BrokerError } from '../../core/errors.ts';
import { RITHMIC_TITLE } from './descriptor.ts';

export interface Contract {
  root: string;
  /** ESH7 */
  symbol: string;
  exchange: string;
}

const EXCHANGES: Readonly<Record<string, readonly string[]>> = {
  CME: ['ES', 'MES', 'NQ', 'MNQ', 'RTY', 'M2K', 'EMD', '6A', '6B', '6C', '6E', '6J', '6S', 'M6E', 'LE', 'HE', 'GF'],
  CBOT: ['YM', 'MYM', 'ZB', 'UB', 'ZN', 'ZF', 'ZT', 'TN', 'ZC', 'ZS', 'ZW', 'ZL', 'ZM'],
  NYMEX: ['CL', 'MCL', 'QM', 'NG', 'QG', 'RB', 'HO', 'PL', 'PA'],
  COMEX: ['GC', 'MGC', 'SI', 'SIL', 'HG', 'MHG'],
};
const EXCHANGE_OF = new Map(Object.entries(EXCHANGES).flatMap(([exchange, roots]) => roots.map((r) => [r, exchange])));

/** Minimum price increments of the roots a bracket's exits can be converted to ticks for. */
const TICKS: Readonly<Record<string, number>> = {
  ES: 0.25,
  MES: 0.25,
  NQ: 0.25,
  MNQ: 0.25,
  RTY: 0.1,
  M2K: 0.1,
  YM: 1,
  MYM: 1,
  ZB: 1 / 32,
  ZN: 1 / 64,
  CL: 0.01,
  MCL: 0.01,
  NG: 0.001,
  GC: 0.1,
  MGC: 0.1,
  SI: 0.005,
  '6E': 0.00005,
};

const invalid = (message: string) => new BrokerError('InvalidOrder', RITHMIC_TITLE, message);

export function contractOf(order: Pick<Order, 'symbol' | 'exchange'>, now: number): Contract {
  const { parts } = parseSymbol(order.symbol, { now: () => now });
  if (parts.kind === 'continuous_future')
    throw invalid(`continuous contracts (${order.symbol}) are not resolved; name the month, e.g. ${parts.root}H2027`);
  if (parts.kind !== 'future') throw invalid(`${order.symbol} is not a futures contract; give one as ESH2027`);
  const exchange = order.exchange?.toUpperCase() ?? EXCHANGE_OF.get(parts.root);
  if (!exchange) throw invalid(`the exchange of ${parts.root} is not known; prefix it, e.g. CME:${parts.root}H2027`);
  return { root: parts.root, symbol: `${parts.root}${parts.monthCode}${parts.year % 10}`, exchange };
}

/** The root's tick, for brackets; refused for a root whose tick is not known. */
export function tickOf(contract: Contract): number {
  const tick = TICKS[contract.root];
  if (tick === undefined)
    throw invalid(`a bracket's exits are ticks from the entry, and the tick of ${contract.root} is not known`);
  return tick;
}
