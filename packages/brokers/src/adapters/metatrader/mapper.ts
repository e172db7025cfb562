// Normalized order → MetaApi's MetatraderTrade (WIRE §4), for the symbol name the server uses:
//   {"actionType":"ORDER_TYPE_BUY_LIMIT","symbol":"EURUSD","volume":0.1,"openPrice":1.075,
//    "stopLoss":1.07,"takeProfit":1.085,"comment":"tv1","clientId":"0Jx7Kq2M9aBcDeFgHiJk",
//    "expiration":{"type":"ORDER_TIME_GTC"}}
// Our signal id travels as clientId; the signal's client_id as the comment. Both share 26
// characters: when they do not fit, clientId is a hash of the signal id, as long as the comment
// leaves room for (client-id.ts: every length is tried when looking the order up).
import type { Order } from '@router/orders';
import { boundedId } from '../../ccxt/client-id.ts';
import { decimalString } from '../../core/json-read.ts';
import { fail, type MetaApiLink } from './client.ts';
import { CLIENT_ID_BUDGET, MAX_COMMENT_LENGTH } from './descriptor.ts';

export interface MetatraderTrade {
  actionType: string;
  symbol?: string;
  volume?: number;
  openPrice?: number;
  stopLimitPrice?: number;
  stopLoss?: number;
  takeProfit?: number;
  comment?: string;
  clientId?: string;
  magic?: number;
  fillingModes?: string[];
  expiration?: { type: string; time?: string };
  orderId?: string;
  positionId?: string;
}

const ID_CHARACTERS = /^[A-Za-z0-9_]+$/;
/** JSON numbers without float noise (0.30000000000000004 → 0.3). */
const clean = (value: number | undefined) => (value === undefined ? undefined : Number(decimalString(value)));
const invalid = (message: string) => fail('InvalidOrder', message);

/** The clientId of a signal sent with a comment of `commentLength` characters. */
export function clientIdFor(signalId: string, commentLength = 0): string {
  return boundedId(signalId, CLIENT_ID_BUDGET - commentLength, ID_CHARACTERS);
}

/** Every clientId the signal may have been sent under (each comment length the reference allows). */
export function clientIdsOf(signalId: string): Set<string> {
  const ids = new Set<string>();
  for (let length = 0; length <= MAX_COMMENT_LENGTH; length++) ids.add(clientIdFor(signalId, length));
  return ids;
}

const BUY = new Set(['buy', 'buy_to_cover']);
const PENDING_TYPES = { limit: 'LIMIT', stop: 'STOP', stop_limit: 'STOP_LIMIT' } as const;

function comment(order: Order): string | undefined {
  if (order.client_id === undefined) return undefined;
  if (order.client_id.length > MAX_COMMENT_LENGTH || !ID_CHARACTERS.test(order.client_id))
    throw invalid(`client_id: up to ${MAX_COMMENT_LENGTH} letters, digits or _ (it becomes the order comment)`);
  return order.client_id;
}

function magic(order: Order): number | undefined {
  const value = order.extra?.magic;
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!Number.isSafeInteger(number) || number < 0) throw invalid('extra.magic: a whole number, 0 or more');
  return number;
}

type Platform = MetaApiLink['platform'];

/**
 * Market orders: the filling mode; pending orders: how long they rest, as the account's platform
 * takes it. MT4 takes a set time only (WIRE.md §4): a gtc order goes there without an expiration,
 * which is MetaTrader's good till canceled.
 */
function timing(order: Order): (platform: Platform) => Pick<MetatraderTrade, 'fillingModes' | 'expiration'> {
  const { duration, type } = order;
  const at = order.extra?.expiration;
  if (at !== undefined && duration !== 'gtd') throw invalid('extra.expiration goes with duration gtd');
  if (type === 'market') {
    if (duration === 'ioc') return () => ({ fillingModes: ['ORDER_FILLING_IOC'] });
    if (duration === 'fok') return () => ({ fillingModes: ['ORDER_FILLING_FOK'] });
    if (duration === 'day') return () => ({});
    throw invalid(`duration: market orders take day, ioc or fok, not ${duration}`);
  }
  if (duration === 'gtc') return (platform) => (platform === 'mt4' ? {} : { expiration: { type: 'ORDER_TIME_GTC' } });
  if (duration === 'day')
    return (platform) => {
      if (platform === 'mt4') throw invalid('duration: MetaTrader 4 has no day orders; use gtc or gtd');
      return { expiration: { type: 'ORDER_TIME_DAY' } };
    };
  if (duration === 'gtd') {
    const time = typeof at === 'string' ? Date.parse(at) : Number.NaN;
    if (!Number.isFinite(time)) throw invalid('extra.expiration: the time a gtd order expires (ISO 8601)');
    return () => ({ expiration: { type: 'ORDER_TIME_SPECIFIED', time: new Date(time).toISOString() } });
  }
  throw invalid(`duration: pending orders take gtc, day or gtd, not ${duration}`);
}

/**
 * A new position's order: every refusal that needs neither the server's symbol name (symbols.ts)
 * nor the account's platform thrown here, before any call (Broker.checkOrder stops at this point).
 */
export function toTrade(order: Order, signalId: string): (symbol: string, platform: Platform) => MetatraderTrade {
  if (order.quantity === undefined || order.quantity_type !== 'fixed')
    throw invalid('quantity: lots (quantity_type fixed); percent_of_position goes with close');
  const side = BUY.has(order.action) ? 'BUY' : 'SELL';
  const note = comment(order);
  const expert = magic(order);
  const timed = timing(order);
  const volume = clean(order.quantity);
  return (symbol, platform) => {
    if (order.type === 'stop_limit' && platform === 'mt4')
      throw invalid('stop_limit orders need MetaTrader 5 (this is a MetaTrader 4 account)');
    const trade: MetatraderTrade = {
      actionType: order.type === 'market' ? `ORDER_TYPE_${side}` : `ORDER_TYPE_${side}_${PENDING_TYPES[order.type]}`,
      symbol,
      volume,
    };
    if (order.type === 'limit') trade.openPrice = clean(order.limit_price);
    if (order.type === 'stop' || order.type === 'stop_limit') trade.openPrice = clean(order.stop_price);
    if (order.type === 'stop_limit') trade.stopLimitPrice = clean(order.limit_price);
    if (order.stop_loss_price !== undefined) trade.stopLoss = clean(order.stop_loss_price);
    if (order.take_profit_price !== undefined) trade.takeProfit = clean(order.take_profit_price);
    if (note !== undefined) trade.comment = note;
    trade.clientId = clientIdFor(signalId, note?.length ?? 0);
    if (expert !== undefined) trade.magic = expert;
    return { ...trade, ...timed(platform) };
  };
}
