// A close of part of the symbol's positions at MetaTrader (percent_of_position): POSITION_PARTIAL
// for that part of each, rounded down to the symbol's lot step (its specification). Nothing is canceled first: the positions' own
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
import { accountPath, fail, type MetaApiLink } from './client.ts';
import { cancelPendingOrder, symbolItems } from './items.ts';
import { sendTrade } from './trade.ts';

/** A symbol's lots (MetatraderSymbolSpecification): volumes are whole `step`s, at least `min`. */
export interface LotRule {
  step: number;
  min: number;
}
/** What MetaTrader symbols mostly use, for a specification that names none. */
const DEFAULT_LOTS: LotRule = { step: 0.01, min: 0.01 };
const EPSILON = 1e-9;

/** The symbol's lot step and minimum from MetaApi's symbol specification (0.01 when it names none). */
export async function lotRule(http: HttpClient, link: MetaApiLink, symbol: string): Promise<LotRule> {
  const path = `${accountPath(link.metaApiId)}/symbols/${encodeURIComponent(symbol)}/specification`;
  const { status, body } = await http.request({ path, accept: [404] });
  const step = status === 200 ? decimalField(body, 'volumeStep') : undefined;
  const min = status === 200 ? decimalField(body, 'minVolume') : undefined;
  if (!step || step <= 0) return DEFAULT_LOTS;
  return { step, min: min && min > 0 ? min : step };
}

const lots = (volume: number) => Number(volume.toFixed(8));

/** `percent` of the position's volume in whole lot steps, cut down; 0 when under the minimum. */
export function partOf(position: JsonRecord, percent: number, rule: LotRule): number {
  // The hair of tolerance absorbs binary noise (0.58 × 50 % is 28.999… steps).
  const part = lots(
    Math.floor(((decimalField(position, 'volume') ?? 0) * percent) / 100 / rule.step + 1e-6) * rule.step,
  );
  return part + EPSILON >= rule.min ? part : 0;
}

export const tooSmall = (symbol: string, percent: number, rule: LotRule) =>
  fail('InvalidOrder', `${percent} % of the ${symbol} position is less than ${rule.min} lot`);

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
  rule: LotRule,
): Promise<OrderResponse> {
  const parts = new Map<string, number>();
  const closed: string[] = [];
  const due = positions.filter((position) => partOf(position, percent, rule) > 0);
  let stopped = '';
  for (const [index, position] of due.entries()) {
    const positionId = stringField(position, 'id') ?? '';
    const volume = partOf(position, percent, rule);
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
  if (!closed.length) throw tooSmall(symbol, percent, rule);
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
