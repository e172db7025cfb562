// An instrument as an order ticket names it: its IBKR contract id and security type.
import { BrokerError } from '../../core/errors.ts';
import { IBKR_TITLE } from './descriptor.ts';

export type SecType = 'STK' | 'OPT' | 'FUT' | 'CASH' | 'CFD' | 'BOND' | 'WAR';

export interface Instrument {
  conid: number;
  secType: SecType;
  /** When the lookup tells it (options, US stocks): combos are USD only. */
  currency?: string;
  /** A future's tick, where its root's is known (the order language's futureTickOf). */
  tick?: number;
}

export const notFound = (message: string) => new BrokerError('InvalidOrder', IBKR_TITLE, message);

/** A contract id read from IBKR's JSON (a number or a string of digits), if it is one. */
export function conidOf(value: unknown): number | undefined {
  const conid = typeof value === 'number' || typeof value === 'string' ? Number(value) : Number.NaN;
  return Number.isInteger(conid) && conid > 0 ? conid : undefined;
}
