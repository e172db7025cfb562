// E*TRADE names a multi-leg order by its strategy (orderType, WIRE.md §4):
//   BUY_WRITES      shares and a call, in one order
//   BUTTERFLY       three option legs
//   CONDOR          four options of one right
//   IRON_BUTTERFLY  two puts and two calls, the sold put and call at one strike
//   IRON_CONDOR     two puts and two calls otherwise
//   SPREADS         anything else (two options: a vertical, calendar or diagonal)
import type { EtradeInstrument } from './mapper.ts';

const sells = (leg: EtradeInstrument) => leg.orderAction.startsWith('SELL');

export function spreadOf(legs: readonly EtradeInstrument[]): string {
  const options = legs.filter((leg) => leg.Product.securityType === 'OPTN');
  const stock = legs.length - options.length;
  if (legs.length === 2 && stock === 1 && options[0]?.Product.callPut === 'CALL') return 'BUY_WRITES';
  if (stock > 0) return 'SPREADS';
  if (legs.length === 3) return 'BUTTERFLY';
  if (legs.length === 4) {
    const puts = options.filter((leg) => leg.Product.callPut === 'PUT');
    if (puts.length === 0 || puts.length === 4) return 'CONDOR';
    if (puts.length === 2) {
      const soldPut = puts.find(sells)?.Product.strikePrice;
      const soldCall = options.find((leg) => leg.Product.callPut === 'CALL' && sells(leg))?.Product.strikePrice;
      return soldPut !== undefined && soldPut === soldCall ? 'IRON_BUTTERFLY' : 'IRON_CONDOR';
    }
  }
  return 'SPREADS';
}
