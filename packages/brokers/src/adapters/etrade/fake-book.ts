// The fake's brokerage: a PreviewOrderRequest checked as E*TRADE documents it (WIRE.md §4: the
// enums, clientOrderId of at most 20 letters and digits, the prices each priceType needs, option
// products as underlying + callPut + expiry + strike, actions by security type), orders kept as
// E*TRADE lists them (§6), market orders filled at once at a fixed quote. Error codes other than
// 100/101 are not documented: the fake's are its own, the messages say what E*TRADE would.
type Json = Record<string, unknown>;

export class FakeRefusal extends Error {
  readonly status: number;
  readonly code: number;
  constructor(status: number, code: number, message: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

const ORDER_TYPES = ['EQ', 'OPTN', 'SPREADS', 'BUY_WRITES', 'BUTTERFLY', 'IRON_BUTTERFLY', 'CONDOR', 'IRON_CONDOR'];
const PRICE_TYPES = [
  'MARKET',
  'LIMIT',
  'STOP',
  'STOP_LIMIT',
  'TRAILING_STOP_CNST',
  'TRAILING_STOP_PRCT',
  'MARKET_ON_OPEN',
  'MARKET_ON_CLOSE',
  'LIMIT_ON_OPEN',
  'LIMIT_ON_CLOSE',
  'NET_DEBIT',
  'NET_CREDIT',
  'NET_EVEN',
];
const TERMS = ['GOOD_FOR_DAY', 'GOOD_UNTIL_CANCEL', 'GOOD_TILL_DATE', 'IMMEDIATE_OR_CANCEL', 'FILL_OR_KILL'];
const EQUITY_ACTIONS = ['BUY', 'SELL', 'BUY_TO_COVER', 'SELL_SHORT'];
const OPTION_ACTIONS = ['BUY_OPEN', 'SELL_OPEN', 'BUY_CLOSE', 'SELL_CLOSE'];
const NEEDS_LIMIT = ['LIMIT', 'STOP_LIMIT', 'LIMIT_ON_OPEN', 'LIMIT_ON_CLOSE', 'NET_DEBIT', 'NET_CREDIT'];
const NEEDS_STOP = ['STOP', 'STOP_LIMIT'];

export const record = (value: unknown): Json | undefined =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined;
export const list = (value: unknown): Json[] =>
  Array.isArray(value) ? value.map(record).filter((item): item is Json => item !== undefined) : [];
const isPrice = (value: unknown) => typeof value === 'number' && Number.isFinite(value) && value > 0;

const invalid = (message: string) => new FakeRefusal(400, 1001, message);

function checkProduct(product: Json | undefined, action: unknown, where: string): void {
  if (!product) throw invalid(`${where}Product is required`);
  const symbol = product.symbol;
  if (typeof symbol !== 'string' || !/^[A-Z][A-Z0-9.]{0,9}$/.test(symbol)) throw invalid(`${where}invalid symbol`);
  if (product.securityType === 'EQ') {
    if (!EQUITY_ACTIONS.includes(String(action))) throw invalid(`${where}invalid orderAction for an equity`);
    return;
  }
  if (product.securityType !== 'OPTN') throw invalid(`${where}invalid securityType ${String(product.securityType)}`);
  if (!OPTION_ACTIONS.includes(String(action))) throw invalid(`${where}invalid orderAction for an option`);
  if (product.callPut !== 'CALL' && product.callPut !== 'PUT') throw invalid(`${where}callPut must be CALL or PUT`);
  const { expiryYear: year, expiryMonth: month, expiryDay: day } = product;
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  if (![year, month, day].every(Number.isInteger) || date.getUTCDate() !== day) {
    throw invalid(`${where}invalid expiry date`);
  }
  if (!isPrice(product.strikePrice)) throw invalid(`${where}invalid strikePrice`);
}

/** Problems E*TRADE answers a preview (or place) with 400 for; the request when it is good. */
export function checkOrderRequest(body: Json | undefined): Json {
  if (!body) throw invalid('PreviewOrderRequest is required');
  if (!ORDER_TYPES.includes(String(body.orderType))) throw invalid(`invalid orderType ${String(body.orderType)}`);
  const clientOrderId = body.clientOrderId;
  if (typeof clientOrderId !== 'string' || !/^[A-Za-z0-9]{1,20}$/.test(clientOrderId)) {
    throw invalid('clientOrderId is required: up to 20 alphanumeric characters');
  }
  const orders = list(body.Order);
  const [order] = orders;
  if (!order || orders.length !== 1) throw invalid('exactly one Order is required');
  const priceType = String(order.priceType);
  if (!PRICE_TYPES.includes(priceType)) throw invalid(`invalid priceType ${priceType}`);
  if (!TERMS.includes(String(order.orderTerm))) throw invalid(`invalid orderTerm ${String(order.orderTerm)}`);
  if (order.marketSession !== 'REGULAR' && order.marketSession !== 'EXTENDED') throw invalid('invalid marketSession');
  if (NEEDS_LIMIT.includes(priceType) && !isPrice(order.limitPrice))
    throw invalid(`limitPrice is required for ${priceType}`);
  if (NEEDS_STOP.includes(priceType) && !isPrice(order.stopPrice))
    throw invalid(`stopPrice is required for ${priceType}`);
  if (order.stopLimitPrice !== undefined && order.stopLimitPrice !== order.limitPrice) {
    throw invalid('stopLimitPrice and limitPrice disagree');
  }
  const instruments = list(order.Instrument);
  const spread = !['EQ', 'OPTN'].includes(String(body.orderType));
  if (spread !== priceType.startsWith('NET_') || (spread ? instruments.length < 2 : instruments.length !== 1)) {
    throw invalid(
      `${String(body.orderType)} orders take ${spread ? 'several Instruments at a NET price' : 'one Instrument'}`,
    );
  }
  instruments.forEach((instrument, index) => {
    const where = instruments.length > 1 ? `Instrument ${index + 1}: ` : '';
    checkProduct(record(instrument.Product), instrument.orderAction, where);
    if (instrument.quantityType !== 'QUANTITY') throw invalid(`${where}quantityType must be QUANTITY`);
    const quantity = instrument.quantity;
    if (typeof quantity !== 'number' || !Number.isInteger(quantity) || quantity <= 0) {
      throw invalid(`${where}quantity must be a whole number greater than 0`);
    }
  });
  const securityTypes = instruments.map((item) => record(item.Product)?.securityType);
  if (body.orderType === 'EQ' && securityTypes[0] !== 'EQ') throw invalid('orderType EQ takes an equity');
  if (body.orderType === 'OPTN' && securityTypes[0] !== 'OPTN') throw invalid('orderType OPTN takes an option');
  return order;
}

export interface FakePosition {
  product: Json;
  /** Long positive, short negative. */
  quantity: number;
  costPerShare: number;
}

export interface FakeAccount {
  accountId: string;
  accountIdKey: string;
  accountMode: 'CASH' | 'MARGIN';
  cash: number;
  positions: Map<string, FakePosition>;
}

export interface FakeOrder {
  orderId: number;
  accountIdKey: string;
  orderType: string;
  clientOrderId: string;
  placedTime: number;
  executedTime?: number;
  status: string;
  order: Json;
  /** Execution price per instrument, once executed (or executed in part). */
  fills?: number[];
  /** What executed of each instrument while it works on (INDIVIDUAL_FILLS). */
  filled?: number;
  /** Placed through the API (not seeded from the published examples). */
  placed: boolean;
}

/** A product's identity: "AAPL" or "AAPL 2026-6-18 CALL 200". */
export function productKey(product: Json | undefined): string {
  if (product?.securityType !== 'OPTN') return String(product?.symbol);
  const { symbol, expiryYear, expiryMonth, expiryDay, callPut, strikePrice } = product;
  return `${String(symbol)} ${String(expiryYear)}-${String(expiryMonth)}-${String(expiryDay)} ${String(callPut)} ${String(strikePrice)}`;
}

export const multiplier = (product: Json | undefined) => (product?.securityType === 'OPTN' ? 100 : 1);
const buys = (action: unknown) => String(action).startsWith('BUY');

/** What buying the instruments costs at the order's price or the quote. */
export function orderCost(order: Json, quote: (product: Json | undefined) => number): number {
  const limit = typeof order.limitPrice === 'number' && order.priceType === 'LIMIT' ? order.limitPrice : undefined;
  return list(order.Instrument).reduce((sum, instrument) => {
    const product = record(instrument.Product);
    const price = limit ?? quote(product);
    return sum + (buys(instrument.orderAction) ? Number(instrument.quantity) * price * multiplier(product) : 0);
  }, 0);
}

/** Fills every instrument at the quote (`part` of each, else all): positions and cash move; returns the prices. */
export function fillOrder(
  account: FakeAccount,
  order: Json,
  quote: (product: Json | undefined) => number,
  part?: number,
): number[] {
  return list(order.Instrument).map((instrument) => {
    const product = record(instrument.Product) ?? {};
    const price = quote(product);
    const signed = (part ?? Number(instrument.quantity)) * (buys(instrument.orderAction) ? 1 : -1);
    const key = productKey(product);
    const held = account.positions.get(key) ?? { product, quantity: 0, costPerShare: price };
    const total = held.quantity + signed;
    if (total === 0) account.positions.delete(key);
    else account.positions.set(key, { ...held, quantity: total, costPerShare: price });
    account.cash -= signed * price * multiplier(product);
    return price;
  });
}
