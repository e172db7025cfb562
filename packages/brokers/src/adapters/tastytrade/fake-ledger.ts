// The protocol fake's orders: kept as received, filled at fixed quotes, shown in tastytrade's
// order shape (broker-specs/tastytrade/fixtures/order-status.response.json):
//   {"id":1075999,"account-number":"5WT00001","time-in-force":"Day","order-type":"Limit","size":"100",
//    "underlying-symbol":"AAPL","price":"175.25","price-effect":"Debit","status":"Filled","cancellable":false,
//    "external-identifier":"…","received-at":"…","legs":[{"instrument-type":"Equity","symbol":"AAPL",
//    "quantity":"100","remaining-quantity":"0","action":"Buy to Open","fills":[{"fill-price":"175.24",…}]}]}
import { type FakeAccount, type Json, list, multiplierOf, num, quoteOf, underlying } from './fake-book.ts';

export interface FakeOrder {
  id: number;
  account: FakeAccount;
  body: Json;
  status: string;
  receivedAt: number;
  updatedAt: number;
  /** Fill price per leg, once filled. */
  fills?: number[];
  complexOrderId?: number;
  /** A bracket's exits, routed when this (their trigger) fills. */
  contingent?: FakeOrder[];
}

const OPEN = new Set(['Received', 'Routed', 'In Flight', 'Contingent', 'Live']);
const iso = (ms: number) => new Date(ms).toISOString().replace('Z', '+00:00');
const text = (value: unknown) => (value === undefined ? undefined : String(value));

export const isOpen = (order: FakeOrder) => OPEN.has(order.status);

/** Whether the order would fill now at the quotes: market orders always, limits when marketable. */
function fillsNow(order: Json, prices: number[]): boolean {
  const type = order['order-type'];
  if (type === 'Market' || type === 'Notional Market') return true;
  if (type !== 'Limit') return false;
  const [leg] = list(order.legs);
  const [quote = 0] = prices;
  if (list(order.legs).length !== 1 || !leg) return false;
  return String(leg.action).startsWith('Buy') ? num(order.price) >= quote : num(order.price) <= quote;
}

/** Fills the order at the quotes when it would, updating the account; returns whether it did. */
export function tryFill(order: FakeOrder, quotes: Record<string, number>, now: number): boolean {
  const legs = list(order.body.legs);
  const prices = legs.map((leg) => quoteOf(quotes, String(leg.symbol), String(leg['instrument-type'])));
  if (!fillsNow(order.body, prices)) return false;
  legs.forEach((leg, index) => {
    const type = String(leg['instrument-type']);
    const symbol = String(leg.symbol);
    const price = prices[index] ?? 0;
    const size = leg.quantity !== undefined ? num(leg.quantity) : num(order.body.value) / price;
    const signed = String(leg.action).startsWith('Buy') ? size : -size;
    const held = order.account.positions.get(symbol) ?? { instrumentType: type, quantity: 0, averagePrice: price };
    held.quantity += signed;
    if (Math.abs(held.quantity) < 1e-9) order.account.positions.delete(symbol);
    else order.account.positions.set(symbol, { ...held, averagePrice: price });
    if (type !== 'Future') order.account.cash -= signed * price * multiplierOf(type);
  });
  order.fills = prices;
  order.status = 'Filled';
  order.updatedAt = now;
  return true;
}

export function orderView(order: FakeOrder): Json {
  const { body } = order;
  const legs = list(body.legs);
  const [first] = legs;
  const type = String(first?.['instrument-type'] ?? 'Equity');
  const terminal = !isOpen(order);
  return {
    id: order.id,
    'account-number': order.account.number,
    'time-in-force': body['time-in-force'],
    ...(body['gtc-date'] ? { 'gtc-date': body['gtc-date'] } : {}),
    'order-type': body['order-type'],
    size: text(first?.quantity ?? body.value),
    'underlying-symbol': underlying(String(first?.symbol ?? ''), type),
    'underlying-instrument-type': type,
    ...(body.price !== undefined ? { price: text(body.price), 'price-effect': body['price-effect'] } : {}),
    ...(body['stop-trigger'] !== undefined ? { 'stop-trigger': text(body['stop-trigger']) } : {}),
    ...(body.value !== undefined ? { value: text(body.value), 'value-effect': body['value-effect'] } : {}),
    status: order.status,
    cancellable: !terminal,
    editable: !terminal,
    edited: false,
    ...(body['external-identifier'] ? { 'external-identifier': body['external-identifier'] } : {}),
    ...(body.source ? { source: body.source } : {}),
    ...(order.complexOrderId ? { 'complex-order-id': order.complexOrderId } : {}),
    'received-at': iso(order.receivedAt),
    'updated-at': iso(order.updatedAt),
    legs: legs.map((leg, index) => {
      const price = order.fills?.[index];
      const quantity = text(leg.quantity) ?? (price ? String(num(body.value) / price) : undefined);
      return {
        'instrument-type': leg['instrument-type'],
        symbol: leg.symbol,
        quantity,
        'remaining-quantity': price !== undefined ? '0' : quantity,
        action: leg.action,
        fills:
          price === undefined
            ? []
            : [
                {
                  'fill-id': `${order.id}_${index}`,
                  quantity,
                  'fill-price': String(price),
                  'filled-at': iso(order.updatedAt),
                },
              ],
      };
    }),
    ...(terminal ? { 'terminal-at': iso(order.updatedAt) } : {}),
  };
}

/** What a placement or dry-run answers beside the order (shapes of place-order.response.json). */
export function effects(cost: number, cash: number): Json {
  const effect = cost > 0 ? 'Debit' : 'None';
  return {
    'buying-power-effect': {
      'change-in-buying-power': String(cost),
      'change-in-buying-power-effect': effect,
      'current-buying-power': String(cash),
      'current-buying-power-effect': 'Credit',
      'new-buying-power': String(cash - cost),
      'new-buying-power-effect': 'Credit',
      'is-spread': false,
      impact: String(cost),
      effect,
    },
    'fee-calculation': {
      'total-fees': '0.0',
      'total-fees-effect': 'None',
      commission: '0.0',
      'commission-effect': 'None',
    },
    warnings: [],
  };
}
