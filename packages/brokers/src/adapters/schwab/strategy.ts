// Schwab labels a multi-leg option order with its strategy (complexOrderStrategyType). Two we
// recognize, everything else is CUSTOM:
//   VERTICAL      2 legs, one bought one sold, same underlying, expiry and right, other strike
//   IRON_CONDOR   a put vertical and a call vertical, same underlying and expiry, equal sizes
import { type OrderLeg, parseSymbol } from '@router/orders';

interface OptionLeg {
  root: string;
  expiry: string;
  right: 'C' | 'P';
  strike: number;
  buys: boolean;
  quantity: number;
}

function optionLeg(leg: OrderLeg): OptionLeg | undefined {
  if (leg.class !== 'option') return undefined;
  const { parts } = parseSymbol(leg.symbol);
  if (parts.kind !== 'option') return undefined;
  const buys = leg.action === 'buy_to_open' || leg.action === 'buy_to_close' || leg.action === 'buy';
  return { ...parts, buys, quantity: leg.quantity };
}

function isVertical(a: OptionLeg, b: OptionLeg): boolean {
  return (
    a.root === b.root &&
    a.expiry === b.expiry &&
    a.right === b.right &&
    a.strike !== b.strike &&
    a.buys !== b.buys &&
    a.quantity === b.quantity
  );
}

export function complexStrategyOf(legs: readonly OrderLeg[]): string {
  const options = legs.map(optionLeg);
  if (options.some((leg) => leg === undefined)) return 'CUSTOM';
  const known = options as OptionLeg[];
  const [a, b] = known;
  if (known.length === 2 && a && b && isVertical(a, b)) return 'VERTICAL';
  if (known.length === 4) {
    const puts = known.filter((leg) => leg.right === 'P');
    const calls = known.filter((leg) => leg.right === 'C');
    const [p1, p2] = puts;
    const [c1, c2] = calls;
    if (p1 && p2 && c1 && c2 && isVertical(p1, p2) && isVertical(c1, c2)) {
      const sameSeries = p1.root === c1.root && p1.expiry === c1.expiry && p1.quantity === c1.quantity;
      if (sameSeries) return 'IRON_CONDOR';
    }
  }
  return 'CUSTOM';
}
