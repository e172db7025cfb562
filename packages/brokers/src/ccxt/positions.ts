// Closing a position: a perpetual swap's open contracts, or a spot market's free base
// currency, sold or bought back at market.
import type { Exchange } from 'ccxt';
import type { MarketInfo } from './symbols.ts';
import type { OrderArgs } from './venue.ts';

function amountFor(exchange: Exchange, market: MarketInfo, amount: number): number {
  const rounded = Number(exchange.amountToPrecision(market.symbol, amount));
  return Number.isFinite(rounded) ? rounded : 0;
}

/** `held - amount` without the binary fraction's noise (0.3 - 0.1 is 0.19999999999999998). */
const rest = (held: number, amount: number) => Number((held - amount).toPrecision(12));

/**
 * createOrder arguments that flatten the position, or undefined when there is none; with `part`,
 * that much of it (never more than is held). `partial`: some of the position stays (`left`).
 */
export async function closeOrder(
  exchange: Exchange,
  market: MarketInfo,
  derivatives: boolean,
  part?: number,
): Promise<(OrderArgs & { partial: boolean; left: number }) | undefined> {
  const upTo = (held: number) => (part !== undefined && part > 0 ? Math.min(part, held) : held);
  if (market.swap && derivatives) {
    const positions = await exchange.fetchPositions([market.symbol]);
    const position = positions.find((p) => p.symbol === market.symbol && Number(p.contracts ?? 0) !== 0);
    if (!position) return undefined;
    const contracts = Math.abs(Number(position.contracts));
    const side = position.side === 'short' ? 'buy' : 'sell';
    const amount = amountFor(exchange, market, upTo(contracts));
    return {
      type: 'market',
      side,
      amount,
      params: { reduceOnly: true },
      partial: amount < contracts,
      left: rest(contracts, amount),
    };
  }
  const balances = await exchange.fetchBalance();
  const free = (balances.free ?? {}) as unknown as Record<string, unknown>;
  const held = Number(free[market.base] ?? 0);
  if (!(held > 0)) return undefined;
  const amount = amountFor(exchange, market, upTo(held));
  return amount > 0
    ? { type: 'market', side: 'sell', amount, params: {}, partial: amount < held, left: rest(held, amount) }
    : undefined;
}
