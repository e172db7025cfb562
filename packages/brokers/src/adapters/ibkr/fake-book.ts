// The protocol fake's accounts and orders: tickets validated as IBKR's description requires them
// (broker-specs/validating/ibkr.json: orderType, side, quantity, tif; conid or conidex) and as
// IBKR refuses them after (HTTP 200 {"error": …}: an unknown contract, a futures ticket without
// manualIndicator, a cOID used in the last 24 hours, too little cash), then placed and filled at
// the contract's price when marketable.
import { futureTickOf } from '@router/orders';
import type { FakeContract, FakeMarket } from './fake-market.ts';

export const SPREAD_CONID = 28812380;
const TIFS = ['DAY', 'IOC', 'GTC', 'OPG', 'PAX'];
const ORDER_TYPES = ['MKT', 'LMT', 'STP', 'STOP_LIMIT', 'MIDPRICE'];
const DAY_MS = 24 * 60 * 60_000;

/** An answer the fake gives instead of placing: HTTP 400 (malformed) or 200 {"error"} (refused). */
export class FakeAnswer extends Error {
  readonly status: number;
  readonly body: unknown;
  constructor(status: number, body: unknown) {
    super(JSON.stringify(body));
    this.status = status;
    this.body = body;
  }
}
const malformed = (message: string) => new FakeAnswer(400, { error: message, statusCode: 400 });
export const refused = (message: string) => new FakeAnswer(200, { error: message });

export interface FakeTicket {
  acctId?: string;
  conid?: number;
  conidex?: string;
  cOID?: string;
  parentId?: string;
  orderType: string;
  side: 'BUY' | 'SELL';
  price?: number;
  auxPrice?: number;
  quantity: number;
  tif: string;
  outsideRTH?: boolean;
  isSingleGroup?: boolean;
  manualIndicator?: boolean;
  listingExchange?: string;
}

export interface FakeLeg {
  contract: FakeContract;
  ratio: number;
}

export interface FakeOrder extends FakeTicket {
  orderId: number;
  account: string;
  contract: FakeContract;
  legs?: FakeLeg[];
  status: string;
  filled: number;
  avgPrice?: number;
  createdAt: number;
}

export interface FakeAccount {
  id: string;
  cash: number;
  positions: Map<number, { position: number; avgPrice: number }>;
}

type Json = Record<string, unknown>;
const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/** The body's tickets, checked against IBKR's request schema (malformed → 400). */
export function ticketsOf(body: unknown): FakeTicket[] {
  const orders = (body as Json | null)?.orders;
  if (!body || typeof body !== 'object' || Array.isArray(body) || !Array.isArray(orders) || orders.length === 0)
    throw malformed('orders: an object {"orders": [...]} with at least one ticket is required');
  for (const [index, item] of orders.entries()) {
    const t = item as Json;
    const at = `orders[${index}]`;
    if (!t || typeof t !== 'object') throw malformed(`${at} must be an object`);
    if (typeof t.orderType !== 'string') throw malformed(`${at}.orderType is required`);
    if (!isNumber(t.quantity)) throw malformed(`${at}.quantity must be a number`);
    if (t.side !== 'BUY' && t.side !== 'SELL') throw malformed(`${at}.side must be BUY or SELL`);
    if (!TIFS.includes(String(t.tif))) throw malformed(`${at}.tif must be one of ${TIFS.join(', ')}`);
    if (!Number.isInteger(t.conid) && typeof t.conidex !== 'string')
      throw malformed(`${at}: conid or conidex is required`);
    for (const key of ['price', 'auxPrice'] as const)
      if (t[key] !== undefined && !isNumber(t[key])) throw malformed(`${at}.${key} must be a number`);
    for (const key of ['cOID', 'parentId', 'acctId', 'listingExchange'] as const)
      if (t[key] !== undefined && typeof t[key] !== 'string') throw malformed(`${at}.${key} must be a string`);
    for (const key of ['outsideRTH', 'manualIndicator', 'isSingleGroup'] as const)
      if (t[key] !== undefined && typeof t[key] !== 'boolean') throw malformed(`${at}.${key} must be a boolean`);
  }
  return orders as FakeTicket[];
}

/** Only one ticket per request, unless a bracket (children by parentId) or an OCA group. */
export function checkGroup(tickets: FakeTicket[]): void {
  const [parent, ...children] = tickets;
  if (!parent || children.length === 0) return;
  if (tickets.every((t) => t.isSingleGroup === true)) return;
  if (!parent.cOID || children.some((child) => child.parentId !== parent.cOID || child.cOID !== undefined))
    throw malformed('only one order ticket per request unless a bracket: children name the parent cOID as parentId');
}

export function legsOf(conidex: string, market: FakeMarket): { contract: FakeContract; legs: FakeLeg[] } {
  const [spread, legText = ''] = conidex.split(';;;');
  if (Number(spread) !== SPREAD_CONID || !legText) throw refused(`invalid conidex ${conidex}`);
  const legs = legText.split(',').map((part) => {
    const [conid, ratio] = part.split('/').map(Number);
    const contract = market.byConid(conid ?? 0);
    if (!contract || !Number.isInteger(ratio) || ratio === 0) throw refused(`invalid combo leg ${part}`);
    return { contract, ratio: ratio ?? 0 };
  });
  const spreadContract = {
    ...(legs[0]?.contract as FakeContract),
    conid: SPREAD_CONID,
    secType: 'STK' as const,
    multiplier: 100,
  };
  return { contract: { ...spreadContract, name: 'USD combo', price: 0 }, legs };
}

/** IBKR's refusals of a well-formed ticket. */
export function checkTicket(t: FakeTicket, accountId: string, contract: FakeContract): void {
  if (t.acctId !== undefined && t.acctId !== accountId) throw refused(`acctId ${t.acctId} does not match ${accountId}`);
  if (!ORDER_TYPES.includes(t.orderType)) throw refused(`Invalid order type ${t.orderType}`);
  if (!(t.quantity > 0)) throw refused('Order quantity must be positive');
  if ((t.orderType === 'LMT' || t.orderType === 'STP' || t.orderType === 'STOP_LIMIT') && t.price === undefined)
    throw refused(`Missing price for ${t.orderType} order`);
  if (t.orderType === 'STOP_LIMIT' && t.auxPrice === undefined) throw refused('Missing auxPrice for STOP_LIMIT order');
  // US stocks and options on the Reg NMS tick: a cent ($0.0001 for a stock under $1); not combos.
  const single = t.conidex === undefined;
  if (
    single &&
    (contract.secType === 'STK' || contract.secType === 'OPT') &&
    contract.isUS &&
    contract.currency === 'USD'
  ) {
    for (const value of [t.price, t.auxPrice]) {
      const decimals = value === undefined ? 0 : (String(value).split('.')[1] ?? '').length;
      if (value !== undefined && decimals > (contract.secType === 'STK' && value < 1 ? 4 : 2))
        throw refused('The price does not conform to the minimum price variation for this contract.');
    }
  }
  // Futures on their root's tick (ES: a quarter point), where the order language knows it.
  const futureTick = single && contract.secType === 'FUT' ? futureTickOf(contract.symbol) : undefined;
  for (const value of [t.price, t.auxPrice]) {
    if (
      value !== undefined &&
      futureTick !== undefined &&
      Math.abs(value / futureTick - Math.round(value / futureTick)) > 1e-6
    )
      throw refused('The price does not conform to the minimum price variation for this contract.');
  }
  if (contract.secType === 'FUT' && t.manualIndicator === undefined)
    throw refused('Orders for US futures must indicate whether they were entered manually (manualIndicator)');
}

export function duplicateOf(orders: FakeOrder[], cOID: string | undefined, now: number): FakeOrder | undefined {
  return cOID === undefined ? undefined : orders.find((o) => o.cOID === cOID && now - o.createdAt < DAY_MS);
}

export const duplicateError = (cOID: string) =>
  refused(`Order couldn't be submitted: Local order ID=${cOID} is already registered.`);

/** What a buy ticket costs in the account's cash. */
export function costOf(t: FakeTicket, contract: FakeContract): number {
  if (t.side !== 'BUY') return 0;
  const unit = contract.secType === 'BOND' ? contract.multiplier / 100 : contract.multiplier;
  return t.quantity * (t.price ?? contract.price) * unit;
}
