// A normalized order as RequestNewOrder (312) or RequestBracketOrder (330) fields (WIRE.md §3),
// and Rithmic's notifications (351, 352) as our order status.
//   312 {user_tag:"sig-1", fcm_id, ib_id, account_id, symbol:"ESH7", exchange:"CME", quantity:1,
//        price:6050.25, transaction_type:1, duration:1, price_type:1, trade_route:"simulator", manual_or_auto:2}
//   330 the same plus user_type, bracket_type, target_quantity/target_ticks, stop_quantity/stop_ticks
import type { Order, OrderResponse } from '@router/orders';
import { boundedId } from '../../ccxt/client-id.ts';
import { BrokerError } from '../../core/errors.ts';
import { priceOnKnownTick } from '../../core/ticks.ts';
import { type Contract, knownTickOf, tickOf, type WantedContract } from './contracts.ts';
import { RITHMIC_TITLE } from './descriptor.ts';
import type { RithmicFields } from './protocol.ts';

const PRICE_TYPES = { limit: 1, market: 2, stop_limit: 3, stop: 4 } as const;
const DURATIONS: Partial<Record<Order['duration'], number>> = { day: 1, gtc: 2, ioc: 3, fok: 4 };
const BUYS = new Set(['buy', 'buy_to_cover']);
const AUTO = 2;
const BRACKET = { stopOnly: 1, targetOnly: 2, targetAndStop: 3 } as const;

const invalid = (message: string) => new BrokerError('InvalidOrder', RITHMIC_TITLE, message);

/** Our signal id as user_tag (hashed only if it ever broke the descriptor's rule). */
export const userTagOf = (clientOrderId: string) => boundedId(clientOrderId, 36);

export interface Destination {
  fcm_id: string;
  ib_id: string;
  account_id: string;
  trade_route: string;
  user_type: number;
}

/** What Rithmic can take of the order, checked before anything is sent. */
export function checkOrder(order: Order, contract: WantedContract): void {
  if (order.class !== 'future') throw invalid(`${order.class} is not traded through Rithmic; futures only`);
  if (order.action === 'close' || order.action === 'cancel')
    throw invalid(`action ${order.action} is not supported; send the opposite order or cancel by id`);
  if (order.quantity_type !== 'fixed') throw invalid(`quantity_type ${order.quantity_type} is not supported`);
  if (order.quantity === undefined || !Number.isInteger(order.quantity) || order.quantity < 1)
    throw invalid(`quantity must be a whole number of contracts, not ${order.quantity ?? 'none'}`);
  if (order.legs) throw invalid('multi-leg orders are not supported');
  if (DURATIONS[order.duration] === undefined)
    throw invalid(`duration ${order.duration} is not supported; use day, gtc, ioc or fok`);
  if (order.limit_price !== undefined) onTick(order.limit_price, 'limit_price', order, contract);
  if (order.stop_price !== undefined) onTick(order.stop_price, 'stop_price', order, contract);
  if (hasBracket(order)) bracketOf(order, contract);
}

const TICK_KEYS = ['target_ticks', 'stop_ticks'] as const;
const hasBracket = (order: Order) =>
  order.take_profit_price !== undefined ||
  order.stop_loss_price !== undefined ||
  TICK_KEYS.some((key) => order.extra?.[key] !== undefined);

/** extra.target_ticks / extra.stop_ticks: Rithmic's own offsets from the fill, for any entry. */
function ticksOf(order: Order): { target?: number; stop?: number } {
  const found: { target?: number; stop?: number } = {};
  for (const key of TICK_KEYS) {
    const value = order.extra?.[key];
    if (value === undefined) continue;
    const ticks = Number(value);
    if (!Number.isInteger(ticks) || ticks < 1)
      throw invalid(`extra.${key} must be a whole number of ticks, not ${value}`);
    found[key === 'target_ticks' ? 'target' : 'stop'] = ticks;
  }
  return found;
}

/** Whole ticks between an exit and the entry, on the exit's side of it. */
function ticksTo(exit: number, entry: number, tick: number, above: boolean, name: string): number {
  if (exit > entry !== above) throw invalid(`${name} ${exit} must be ${above ? 'above' : 'below'} the entry ${entry}`);
  const ticks = Math.abs(exit - entry) / tick;
  const whole = Math.round(ticks);
  if (whole < 1 || Math.abs(ticks - whole) > 1e-6)
    throw invalid(`${name} ${exit} is not a whole number of ticks (${tick}) from the entry ${entry}`);
  return whole;
}

/**
 * An entry's price on the root's tick where it is known, never past the trader's (a buy's down, a
 * sell's up; a stop alike, as the other adapters round it), refused if that takes it to 0; as
 * given, without float noise, for a root whose tick is not known.
 */
function onTick(value: number, field: string, order: Order, contract: Pick<Contract, 'root'>): number {
  return priceOnKnownTick(value, knownTickOf(contract), BUYS.has(order.action), (m) => invalid(`${field} ${m}`));
}

/** Exit prices as whole ticks from a priced entry (take_profit_price, stop_loss_price), as sent. */
function ticksFromPrices(order: Order, contract: WantedContract): { target?: number; stop?: number } {
  const given = order.type === 'stop' ? order.stop_price : order.limit_price;
  const field = order.type === 'stop' ? 'stop_price' : 'limit_price';
  const entry = given === undefined ? undefined : onTick(given, field, order, contract);
  if (order.type === 'market' || entry === undefined)
    throw invalid(
      "a bracket's exits are ticks from the entry price: give a limit, stop or stop_limit entry, or extra.target_ticks/stop_ticks",
    );
  const tick = tickOf(contract);
  const buy = BUYS.has(order.action);
  const { take_profit_price: target, stop_loss_price: stop } = order;
  return {
    ...(target !== undefined ? { target: ticksTo(target, entry, tick, buy, 'take_profit_price') } : {}),
    ...(stop !== undefined ? { stop: ticksTo(stop, entry, tick, !buy, 'stop_loss_price') } : {}),
  };
}

function bracketOf(order: Order, contract: WantedContract): Record<string, number> {
  const byPrice = order.take_profit_price !== undefined || order.stop_loss_price !== undefined;
  const byTicks = TICK_KEYS.some((key) => order.extra?.[key] !== undefined);
  if (byPrice && byTicks) throw invalid('give the exits as prices or as extra ticks, not both');
  const { target, stop } = byPrice ? ticksFromPrices(order, contract) : ticksOf(order);
  const quantity = order.quantity ?? 0;
  const fields: Record<string, number> = {
    bracket_type:
      target !== undefined && stop !== undefined
        ? BRACKET.targetAndStop
        : target !== undefined
          ? BRACKET.targetOnly
          : BRACKET.stopOnly,
  };
  if (target !== undefined) Object.assign(fields, { target_quantity: quantity, target_ticks: target });
  if (stop !== undefined) Object.assign(fields, { stop_quantity: quantity, stop_ticks: stop });
  return fields;
}

/** The request a signal becomes: 312, or 330 when it has exits. */
export function orderRequest(order: Order, contract: Contract, to: Destination, clientOrderId: string): RithmicFields {
  checkOrder(order, contract);
  const tag = userTagOf(clientOrderId);
  const { user_type, ...account } = to;
  const entry = {
    user_msg: [tag],
    user_tag: tag,
    fcm_id: account.fcm_id,
    ib_id: account.ib_id,
    account_id: account.account_id,
    symbol: contract.symbol,
    exchange: contract.exchange,
    quantity: order.quantity ?? 0,
    ...(order.limit_price !== undefined ? { price: onTick(order.limit_price, 'limit_price', order, contract) } : {}),
    ...(order.stop_price !== undefined
      ? { trigger_price: onTick(order.stop_price, 'stop_price', order, contract) }
      : {}),
    transaction_type: BUYS.has(order.action) ? 1 : 2,
    duration: DURATIONS[order.duration] ?? 1,
    price_type: PRICE_TYPES[order.type],
    trade_route: account.trade_route,
    manual_or_auto: AUTO,
  };
  if (!hasBracket(order)) return { template_id: 312, ...entry };
  return { template_id: 330, ...entry, user_type, ...bracketOf(order, contract) };
}

const text = (value: unknown) => (typeof value === 'string' ? value : '');
const count = (value: unknown) => (typeof value === 'number' ? value : 0);

/** What a notification says of the order: accepted (working), filled, canceled or rejected. */
export function statusOf(notification: RithmicFields): OrderResponse['status'] {
  const type = notification.notify_type;
  const filled = count(notification.total_fill_size) > 0 && count(notification.total_unfilled_size) === 0;
  if (notification.template_id === 352) {
    if (type === 6) return 'rejected';
    if (type === 3) return 'canceled';
    if (type === 5 && filled) return 'filled';
    return 'accepted';
  }
  if (type !== 15) return 'accepted';
  const reason = `${text(notification.completion_reason)} ${text(notification.status)}`.toLowerCase();
  if (reason.includes('reject')) return 'rejected';
  // A COMPLETE leaves nothing unfilled, canceled or not: a partly filled order whose rest was
  // canceled is canceled, whatever its sizes say.
  if (reason.includes('cancel')) return 'canceled';
  if (filled || reason.includes('fill')) return 'filled';
  return 'canceled';
}

/** Why the order was rejected, as Rithmic words it. */
export const reasonOf = (notification: RithmicFields) =>
  text(notification.text) || text(notification.report_text) || text(notification.completion_reason) || 'order rejected';

/** A notification as our order response. */
export function responseOf(notification: RithmicFields): OrderResponse {
  const status = statusOf(notification);
  const average = notification.avg_fill_price;
  const detail = status === 'rejected' ? reasonOf(notification) : text(notification.status) || status;
  return {
    id: text(notification.basket_id),
    status,
    status_description: `Rithmic order ${detail}`,
    ...(typeof average === 'number' && count(notification.total_fill_size) > 0 ? { price: average } : {}),
  };
}

/** A final state outranks a working one; among equals the later notification wins. */
export function laterState(current: RithmicFields | undefined, next: RithmicFields): RithmicFields {
  if (!current) return next;
  return statusOf(next) === 'accepted' && statusOf(current) !== 'accepted' ? current : next;
}
