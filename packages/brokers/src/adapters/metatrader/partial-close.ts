// A close of part of the symbol's positions at MetaTrader (percent_of_position): POSITION_PARTIAL
// for that part of each, rounded down to 0.01 lot. Nothing is canceled first: the positions' own
// stop loss and take profit stay on what is left, and so do the pending exits (orders on the
// closing side) that still fit it. MetaApi cannot change a pending order's volume (ORDER_MODIFY
// moves its prices and expiration only), so an exit larger than what is left, which would open
// the other way once triggered, is canceled after the close, and the answer names it. A part
// refused after others closed stops there: the answer tells what closed and where it stopped.
import type { OrderResponse } from '@router/orders';
import type { BrokerContext } from '../../core/broker.ts';
import { type BrokerError, isBrokerError } from '../../core/errors.ts';
import { cutEach, exitsCanceledOutcome } from '../../core/exits-cut.ts';
import type { HttpClient } from '../../core/http.ts';
import { decimalField, type JsonRecord, stringField } from '../../core/json-read.ts';
import { fail, type MetaApiLink } from './client.ts';
import { cancelPendingOrder, symbolItems } from './items.ts';
import { sendTrade } from './trade.ts';

export const LOT_STEP = 0.01;
const EPSILON = 1e-9;

/** `percent` of the position's volume in whole lot steps, cut down. */
export function partOf(position: JsonRecord, percent: number): number {
  // The hair of tolerance absorbs binary noise (0.58 × 50 % is 28.999… steps).
  return Math.floor(((decimalField(position, 'volume') ?? 0) * percent) / 100 / LOT_STEP + 1e-6) * LOT_STEP;
}

export const tooSmall = (symbol: string, percent: number) =>
  fail('InvalidOrder', `${percent} % of the ${symbol} position is less than 0.01 lot`);

const lots = (volume: number) => Number(volume.toFixed(2));
const isLong = (position: JsonRecord) => stringField(position, 'type') !== 'POSITION_TYPE_SELL';

/** Where closing parts stopped: the position refused (or perhaps closed in part) and those not tried. */
function stoppedAt(positionId: string, error: BrokerError, untried: readonly JsonRecord[]): string {
  const perhaps = error.outcomeUnknown ? ', perhaps closed in part (its outcome unknown)' : '';
  const rest = untried.map((position) => stringField(position, 'id')).filter(Boolean);
  const others = rest.length ? `; not tried: ${rest.join(', ')}` : '';
  return `; stopped at position ${positionId}${perhaps} (${error.brokerMessage})${others}: check it at the broker`;
}

/** The lots left long and short once `parts` (position id → lots closed) are closed. */
function leftOf(positions: readonly JsonRecord[], parts: ReadonlyMap<string, number>) {
  const left = { long: 0, short: 0 };
  for (const position of positions) {
    const rest = (decimalField(position, 'volume') ?? 0) - (parts.get(stringField(position, 'id') ?? '') ?? 0);
    left[isLong(position) ? 'long' : 'short'] += rest;
  }
  return { long: lots(left.long), short: lots(left.short) };
}

/** Closes `percent` of each of the symbol's `positions`, then cancels the exits larger than what is left. */
export async function closePart(
  ctx: BrokerContext,
  http: HttpClient,
  link: MetaApiLink,
  symbol: string,
  positions: readonly JsonRecord[],
  percent: number,
): Promise<OrderResponse> {
  const parts = new Map<string, number>();
  const closed: string[] = [];
  const due = positions.filter((position) => lots(partOf(position, percent)) >= LOT_STEP);
  let stopped = '';
  for (const [index, position] of due.entries()) {
    const positionId = stringField(position, 'id') ?? '';
    const volume = lots(partOf(position, percent));
    try {
      const result = await sendTrade(ctx, http, link, { actionType: 'POSITION_PARTIAL', positionId, volume });
      parts.set(positionId, volume);
      closed.push(result.orderId ?? positionId);
    } catch (error) {
      // Refused (or unknown) before anything closed: the whole signal is. After a part closed,
      // what closed stands and the answer says where it stopped.
      if (!closed.length || !isBrokerError(error)) throw error;
      stopped = stoppedAt(positionId, error, due.slice(index + 1));
      break;
    }
  }
  if (!closed.length) throw tooSmall(symbol, percent);
  const answer: OrderResponse = {
    id: closed.join(','),
    status: 'filled',
    status_description: `Closed ${percent} % of ${closed.length} position(s) of ${symbol}${stopped}`,
  };
  const left = leftOf(positions, parts);
  const long = positions.some(isLong);
  const short = positions.some((position) => !isLong(position));
  // An exit of a long position sells, of a short one buys; one no larger than what is left fits.
  const tooLarge = (order: JsonRecord) => {
    if (!stringField(order, 'id')) return false;
    const type = stringField(order, 'type') ?? '';
    const volume = decimalField(order, 'currentVolume') ?? decimalField(order, 'volume') ?? 0;
    if (long && type.startsWith('ORDER_TYPE_SELL')) return volume > left.long + EPSILON;
    if (short && type.startsWith('ORDER_TYPE_BUY')) return volume > left.short + EPSILON;
    return false;
  };
  const rest =
    long && short
      ? `the ${left.long} lot long and ${left.short} lot short left`
      : `the ${long ? left.long : left.short} lot left`;
  const outcome = await cutEach(
    async () => (await symbolItems(http, link, 'orders', symbol)).filter(tooLarge),
    async (order) => {
      const orderId = stringField(order, 'id') ?? '';
      return (await cancelPendingOrder(ctx, http, link, orderId)) ? orderId : undefined;
    },
  );
  return exitsCanceledOutcome(answer, rest, "MetaTrader cannot change a pending order's volume", outcome);
}
