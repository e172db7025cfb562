// The order book of the Rithmic protocol fake: new and bracket orders validated as the order
// plant validates them (fields, enums, trade route, prices per price type), a risk check, fills
// for market orders, cancels, and every order's notifications (351 Rithmic side, 352 exchange
// side) live or replayed as snapshots. Shapes follow broker-specs/rithmic/fixtures.
import type { RithmicFields } from './protocol.ts';

export const FAKE_FCM = 'DemoFCM';
export const FAKE_IB = 'DemoIB';
export const FAKE_ACCOUNT = 'DEMO-12345-01';
export const FAKE_ROUTES: Readonly<Record<string, string>> = {
  CME: 'simulator',
  CBOT: 'simulator',
  NYMEX: 'simulator',
  COMEX: 'simulator',
};
/** Contracts over this size are refused by the fake's risk check (RMS), as an exchange REJECT. */
export const MAX_CONTRACTS = 50;
/** Where market orders fill. */
export const FILL_PRICE = 6050.25;

export interface FakeOrder {
  basketId: string;
  fields: RithmicFields;
  createdAt: number;
  /** 1 STATUS (open), 3 CANCEL, 5 FILL, 6 REJECT: the last exchange notification. */
  exchangeState: 1 | 3 | 5 | 6;
  filled: number;
  text?: string;
}

type Problem = string | undefined;
const str = (value: unknown) => (typeof value === 'string' ? value : '');
const int = (value: unknown) => (typeof value === 'number' && Number.isInteger(value) ? value : undefined);
const CONTRACT = /^[A-Z0-9]{1,5}[FGHJKMNQUVXZ]\d$/;
const PRICED = new Set([1, 3, 6]);
const TRIGGERED = new Set([3, 4, 5, 6]);

/** What the order plant refuses in a 312/330 (rp_code text), else undefined. */
export function orderProblem(fields: RithmicFields): Problem {
  if (!str(fields.user_tag)) return 'user_tag is required';
  if (fields.fcm_id !== FAKE_FCM || fields.ib_id !== FAKE_IB) return 'invalid fcm_id/ib_id';
  if (fields.account_id !== FAKE_ACCOUNT) return `account ${str(fields.account_id)} not found`;
  if (!CONTRACT.test(str(fields.symbol))) return `invalid symbol ${str(fields.symbol)}`;
  const route = FAKE_ROUTES[str(fields.exchange)];
  if (!route) return `invalid exchange ${str(fields.exchange)}`;
  if (fields.trade_route !== route) return `invalid trade route ${str(fields.trade_route)}`;
  const quantity = int(fields.quantity);
  if (!quantity || quantity < 1) return 'quantity must be positive';
  if (fields.transaction_type !== 1 && fields.transaction_type !== 2) return 'invalid transaction_type';
  const duration = int(fields.duration);
  if (!duration || duration < 1 || duration > 4) return 'invalid duration';
  const priceType = int(fields.price_type);
  if (!priceType || priceType < 1 || priceType > 6) return 'invalid price_type';
  if (PRICED.has(priceType) !== (typeof fields.price === 'number')) return 'price does not fit price_type';
  if (TRIGGERED.has(priceType) !== (typeof fields.trigger_price === 'number'))
    return 'trigger_price does not fit price_type';
  if (fields.manual_or_auto !== 1 && fields.manual_or_auto !== 2) return 'manual_or_auto is required';
  return fields.template_id === 330 ? bracketProblem(fields, quantity) : undefined;
}

function bracketProblem(fields: RithmicFields, quantity: number): Problem {
  const type = int(fields.bracket_type);
  if (!type || type < 1 || type > 6) return 'invalid bracket_type';
  if (int(fields.user_type) === undefined) return 'user_type is required';
  const target = type === 2 || type === 3 || type === 5 || type === 6;
  const stop = type !== 2 && type !== 5;
  for (const [leg, wanted] of [
    ['target', target],
    ['stop', stop],
  ] as const) {
    const ticks = int(fields[`${leg}_ticks`]);
    const size = int(fields[`${leg}_quantity`]);
    if (wanted && (!ticks || ticks < 1 || size !== quantity)) return `${leg}_ticks and ${leg}_quantity are required`;
    if (!wanted && (ticks !== undefined || size !== undefined)) return `${leg}_ticks does not fit bracket_type`;
  }
  return undefined;
}

const ORDER_KEYS = [
  'user_tag',
  'fcm_id',
  'ib_id',
  'account_id',
  'symbol',
  'exchange',
  'trade_route',
  'quantity',
  'price',
  'trigger_price',
  'transaction_type',
  'duration',
  'price_type',
  'manual_or_auto',
  'bracket_type',
] as const;

/** The order's own fields, as every notification of it repeats them. */
function orderPart(order: FakeOrder): Record<string, unknown> {
  const part: Record<string, unknown> = { basket_id: order.basketId };
  for (const key of ORDER_KEYS) if (order.fields[key] !== undefined) part[key] = order.fields[key];
  return part;
}

const stamp = (at: number) => ({ ssboe: Math.floor(at / 1000), usecs: (at % 1000) * 1000 });

/** The exchange notification of the order's current state (live, or a snapshot when replayed). */
export function exchangeNotification(order: FakeOrder, at: number, snapshot: boolean): RithmicFields {
  const quantity = int(order.fields.quantity) ?? 0;
  const statuses = { 1: 'open', 3: 'cancelled', 5: 'complete', 6: 'rejected' } as const;
  return {
    template_id: 352,
    notify_type: order.exchangeState,
    is_snapshot: snapshot,
    report_type: { 1: 'status', 3: 'cancel', 5: 'fill', 6: 'reject' }[order.exchangeState],
    status: statuses[order.exchangeState],
    ...orderPart(order),
    trade_exchange: order.fields.exchange,
    total_fill_size: order.filled,
    total_unfilled_size: order.exchangeState === 1 ? quantity - order.filled : 0,
    ...(order.exchangeState === 5
      ? { fill_price: FILL_PRICE, fill_size: order.filled, fill_id: `F${order.basketId}`, avg_fill_price: FILL_PRICE }
      : {}),
    ...(order.text ? { text: order.text } : {}),
    ...stamp(at),
  };
}

/** The Rithmic-side notification (351) of a step of the order's life. */
export function rithmicNotification(order: FakeOrder, notifyType: number, at: number): RithmicFields {
  const complete = notifyType === 15;
  const reasons = { 3: 'Cancel', 5: 'Fill', 6: 'Reject' } as const;
  return {
    template_id: 351,
    notify_type: notifyType,
    is_snapshot: false,
    status: complete ? 'complete' : notifyType === 13 ? 'open' : 'open pending',
    ...orderPart(order),
    user_id: 'trader01',
    ...(complete && order.exchangeState !== 1 ? { completion_reason: reasons[order.exchangeState] } : {}),
    total_fill_size: order.filled,
    total_unfilled_size: complete ? 0 : (int(order.fields.quantity) ?? 0) - order.filled,
    ...(order.filled > 0 ? { avg_fill_price: FILL_PRICE } : {}),
    ...stamp(at),
  };
}

export interface FakeBook {
  orders: FakeOrder[];
  /** Books a valid order; returns it with the notifications that follow its 313. */
  place(fields: RithmicFields, at: number): { order: FakeOrder; notifications: RithmicFields[] };
  cancel(basketId: string, at: number): { problem?: string; notifications: RithmicFields[] };
  open(accountId: string): FakeOrder[];
  /** YYYYMMDD (UTC) of the days holding orders. */
  dates(): string[];
  onDate(accountId: string, date: string): FakeOrder[];
}

const dateOf = (at: number) => new Date(at).toISOString().slice(0, 10).replaceAll('-', '');

export function createFakeBook(): FakeBook {
  const orders: FakeOrder[] = [];
  let next = 212304567;
  return {
    orders,
    place(fields, at) {
      const order: FakeOrder = { basketId: String(next++), fields, createdAt: at, exchangeState: 1, filled: 0 };
      orders.push(order);
      const quantity = int(fields.quantity) ?? 0;
      const notifications = [rithmicNotification(order, 1, at)];
      if (quantity > MAX_CONTRACTS) {
        order.exchangeState = 6;
        order.text = 'Insufficient margin: order would exceed the account margin';
        notifications.push(exchangeNotification(order, at, false), rithmicNotification(order, 15, at));
        return { order, notifications };
      }
      notifications.push(rithmicNotification(order, 10, at));
      if (fields.price_type === 2) {
        order.exchangeState = 5;
        order.filled = quantity;
        notifications.push(exchangeNotification(order, at, false), rithmicNotification(order, 15, at));
      } else notifications.push(exchangeNotification(order, at, false), rithmicNotification(order, 13, at));
      return { order, notifications };
    },
    cancel(basketId, at) {
      const order = orders.find((item) => item.basketId === basketId);
      if (!order) return { problem: 'order not found', notifications: [] };
      if (order.exchangeState !== 1) return { problem: 'order is not open', notifications: [] };
      order.exchangeState = 3;
      return {
        notifications: [
          rithmicNotification(order, 3, at),
          exchangeNotification(order, at, false),
          rithmicNotification(order, 15, at),
        ],
      };
    },
    open: (accountId) => orders.filter((o) => o.fields.account_id === accountId && o.exchangeState === 1),
    dates: () => [...new Set(orders.map((order) => dateOf(order.createdAt)))].sort(),
    onDate: (accountId, date) =>
      orders.filter((order) => order.fields.account_id === accountId && dateOf(order.createdAt) === date),
  };
}
