// Normalized order → Tradier's form (POST /v1/accounts/{id}/orders), and Tradier's answers → ours.
//   class=option&symbol=SPY&option_symbol=SPY240119C00450000&side=buy_to_open&quantity=1&type=limit
//   &duration=day&price=2.15&tag=sig-123
//   class=multileg&symbol=SPY&type=debit&price=1.2&option_symbol[0]=…&side[0]=buy_to_open&quantity[0]=1
import { type Order, type OrderLeg, type OrderResponse, parseSymbol } from '@router/orders';
import { BrokerError } from '../../core/errors.ts';
import { matchException } from '../../core/exceptions.ts';
import { asRecord, decimalField, decimalString, stringField } from '../../core/json-read.ts';
import { usPriceOnTick } from '../../core/ticks.ts';
import { TRADIER_TITLE, tradierDescriptor } from './descriptor.ts';

export type TradierForm = Record<string, string>;

const invalid = (message: string) => new BrokerError('InvalidOrder', TRADIER_TITLE, message);
const EQUITY_SIDES = new Set(['buy', 'sell', 'sell_short', 'buy_to_cover']);
const OPTION_SIDES = new Set(['buy_to_open', 'buy_to_close', 'sell_to_open', 'sell_to_close']);

/** Tradier tags take letters, digits and dashes, up to 255: other characters become dashes. */
export function tagOf(clientOrderId: string): string {
  return clientOrderId.replace(/[^A-Za-z0-9-]/g, '-').slice(0, 255);
}

/** "SPY   240119C00450000" → { underlying: SPY, option: SPY240119C00450000 }; AAPL → { underlying: AAPL }. */
export function tradierSymbol(symbol: string): { underlying: string; option?: string } {
  const parsed = parseSymbol(symbol);
  if (parsed.parts.kind === 'option')
    return { underlying: parsed.parts.root, option: parsed.canonical.replace(/ /g, '') };
  return { underlying: parsed.canonical };
}

const BUY_SIDES = new Set(['buy', 'buy_to_cover', 'buy_to_open', 'buy_to_close']);

/** A price on the US tick, never past the trader's (see usPriceOnTick), which Tradier refuses to be off. */
function onTick(price: number, side: string, option: boolean): string {
  return decimalString(usPriceOnTick(price, BUY_SIDES.has(side), option, invalid));
}

function wholeQuantity(quantity: number | undefined, field = 'quantity'): string {
  if (quantity === undefined || !Number.isInteger(quantity) || quantity <= 0)
    throw invalid(`${field} must be a whole number of shares or contracts`);
  return String(quantity);
}

export function toTradierForm(order: Order, tag: string | undefined): TradierForm {
  if (order.quantity_type !== 'fixed') throw invalid(`quantity_type ${order.quantity_type} is only for close`);
  if (order.legs) return multilegForm(order, order.legs, tag);
  const { underlying, option } = tradierSymbol(order.symbol);
  const sides = option ? OPTION_SIDES : EQUITY_SIDES;
  if (!sides.has(order.action)) throw invalid(`${order.action} is not an ${option ? 'option' : 'equity'} side`);
  if (order.stop_price_distance !== undefined || order.stop_price_percent !== undefined)
    throw invalid('trailing stops are not supported; give stop_price');
  const form: TradierForm = {
    class: option ? 'option' : 'equity',
    symbol: underlying,
    ...(option ? { option_symbol: option } : {}),
    side: order.action,
    quantity: wholeQuantity(order.quantity),
    type: order.type,
    duration: order.duration,
  };
  if (order.limit_price !== undefined) form.price = onTick(order.limit_price, order.action, Boolean(option));
  if (order.stop_price !== undefined) form.stop = onTick(order.stop_price, order.action, Boolean(option));
  if (tag) form.tag = tag;
  return form;
}

function multilegForm(order: Order, legs: OrderLeg[], tag: string | undefined): TradierForm {
  if (legs.length < 2 || legs.length > 4) throw invalid('multi-leg orders take 2 to 4 legs');
  if (order.type !== 'market' && order.type !== 'limit') throw invalid('multi-leg orders are market or limit');
  if (legs.some((leg) => leg.limit_price !== undefined)) throw invalid('give the net limit_price, not leg prices');
  if (order.type === 'limit' && order.limit_price === undefined)
    throw invalid('limit_price (the net price) is required');
  const parsed = legs.map((leg) => tradierSymbol(leg.symbol));
  const underlying = parsed[0]?.underlying ?? '';
  if (parsed.some((p) => !p.option || p.underlying !== underlying))
    throw invalid('multi-leg legs must be options on one underlying');
  const net = order.limit_price ?? 0;
  const form: TradierForm = {
    class: 'multileg',
    symbol: underlying,
    type: order.type === 'market' ? 'market' : net > 0 ? 'debit' : net < 0 ? 'credit' : 'even',
    duration: order.duration,
  };
  // On the tick too: a debit paid no more than the net (a buy's rounding), a credit received no less.
  if (order.type === 'limit' && net !== 0) form.price = onTick(Math.abs(net), net > 0 ? 'buy' : 'sell', true);
  legs.forEach((leg, index) => {
    if (!OPTION_SIDES.has(leg.action)) throw invalid(`legs[${index}]: ${leg.action} is not an option side`);
    form[`option_symbol[${index}]`] = parsed[index]?.option ?? '';
    form[`side[${index}]`] = leg.action;
    form[`quantity[${index}]`] = wholeQuantity(leg.quantity, `legs[${index}].quantity`);
  });
  if (tag) form.tag = tag;
  return form;
}

/**
 * The refusal Tradier's back office answers with HTTP 200 and no order (as its 400s word theirs):
 *   {"errors": {"error": ["Backoffice rejected override of the order.", "UnexpectedBuyToCoverOrder"]}}
 */
function bodyRefusal(body: unknown): BrokerError | undefined {
  const said = asRecord(asRecord(body)?.errors)?.error;
  const texts = (Array.isArray(said) ? said : [said]).filter((text): text is string => typeof text === 'string');
  if (texts.length === 0 || asRecord(body)?.order !== undefined) return undefined;
  const message = texts.join(' ');
  return new BrokerError(
    matchException(tradierDescriptor.exceptions, message) ?? 'InvalidOrder',
    TRADIER_TITLE,
    message,
  );
}

/** {"order": {"id": 257459, "status": "ok", "partner_id": "c4998eb7-…"}}; a 200 refusal (bodyRefusal) is one. */
export function fromPlacement(body: unknown): OrderResponse {
  const refused = bodyRefusal(body);
  if (refused) throw refused;
  const order = (body as { order?: unknown } | undefined)?.order;
  const id = stringField(order, 'id');
  if (!id || stringField(order, 'status') !== 'ok')
    throw new BrokerError('BrokerUnavailable', TRADIER_TITLE, 'unexpected order answer', { outcomeUnknown: true });
  return { id, status: 'accepted', status_description: 'Order received by Tradier' };
}

/** {"order": {"status": "ok", "result": true, "cost": 1121.5, "commission": 0, "fees": 0, …}} */
export function fromPreview(body: unknown, tag: string): OrderResponse {
  const refused = bodyRefusal(body);
  if (refused) throw refused;
  const order = (body as { order?: unknown } | undefined)?.order;
  if (stringField(order, 'status') !== 'ok')
    throw new BrokerError('BrokerUnavailable', TRADIER_TITLE, 'unexpected preview answer');
  const cost = decimalField(order, 'order_cost') ?? decimalField(order, 'cost');
  const commission = decimalField(order, 'commission') ?? 0;
  return {
    id: tag,
    status: 'draft',
    status_description: `Preview, nothing placed: cost ${cost ?? 'unknown'}, commission ${commission}`,
  };
}

const STATUSES: Record<string, OrderResponse['status']> = {
  filled: 'filled',
  canceled: 'canceled',
  expired: 'canceled',
  rejected: 'rejected',
  error: 'rejected',
};

/** One entry of GET /v1/accounts/{id}/orders: {"id": 228175, "status": "filled", "avg_fill_price": 187.44, …} */
export function fromTradierOrder(order: unknown): OrderResponse {
  const status = stringField(order, 'status') ?? 'unknown';
  const price = decimalField(order, 'avg_fill_price');
  const reason = stringField(order, 'reason_description');
  return {
    id: stringField(order, 'id') ?? '',
    status: STATUSES[status] ?? 'accepted',
    status_description: `Tradier order ${status.replace(/_/g, ' ')}${reason ? `: ${reason}` : ''}`,
    ...(price !== undefined && price > 0 ? { price } : {}),
  };
}
