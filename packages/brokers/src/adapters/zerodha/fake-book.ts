// The order rules of the Kite fake: a form of POST /orders/{variety} checked as Kite checks it
// (InputException on a bad field, as the fixtures word them where they do), instruments with their
// lot size, tick and price. Unknown derivatives are accepted when shaped as Kite names them (the
// real instrument list has tens of thousands), with lot 1.
export class KiteRefusal extends Error {
  readonly status: number;
  readonly errorType: string;
  constructor(status: number, errorType: string, message: string) {
    super(message);
    this.status = status;
    this.errorType = errorType;
  }
}

export interface FakeInstrument {
  token: number;
  lot: number;
  tick: number;
  price: number;
  /** Above this quantity Kite refuses an order unless it is autosliced. */
  freeze: number;
}

const KNOWN: Record<string, Partial<FakeInstrument> & { token: number }> = {
  'NSE:INFY': { token: 408065, price: 1520 },
  'NSE:SBIN': { token: 779521, price: 800 },
  'NSE:TATASTEEL': { token: 895745, price: 157 },
  'NSE:RELIANCE': { token: 738561, price: 2900 },
  'BSE:INFY': { token: 128053508, price: 1520 },
  'NFO:NIFTY26JUNFUT': { token: 13238786, lot: 75, price: 24100, freeze: 1800 },
  'NFO:NIFTY26JUN24000CE': { token: 13240322, lot: 75, price: 210, freeze: 1800 },
  'NFO:NIFTY2580724400CE': { token: 10189826, lot: 75, price: 12.3, freeze: 1800 },
  'NFO:NIFTY27JUNFUT': { token: 13421058, lot: 75, price: 24600, freeze: 1800 },
  'NFO:NIFTY27JUN24000CE': { token: 13422594, lot: 75, price: 1350, freeze: 1800 },
  'NFO:NIFTY2760324400CE': { token: 10312706, lot: 75, price: 640, freeze: 1800 },
  'MCX:GOLDPETAL26JULFUT': { token: 58424839, price: 9500 },
  'MCX:GOLDPETAL27JULFUT': { token: 58993671, price: 9900 },
  'MCX:LEADMINI17DECFUT': { token: 53496327, price: 161.05 },
  'CDS:USDINR26JUNFUT': { token: 412675, price: 85.5, tick: 0.0025 },
};
export const CASH = ['NSE', 'BSE'];
export const DERIVATIVE = ['NFO', 'BFO', 'MCX', 'CDS', 'BCD'];
const DERIVATIVE_NAME = /\d.*(FUT|CE|PE)$/;

const input = (message: string) => new KiteRefusal(400, 'InputException', message);

export function instrumentOf(exchange: string, tradingsymbol: string): FakeInstrument {
  const known = KNOWN[`${exchange}:${tradingsymbol}`];
  const derivative = DERIVATIVE.includes(exchange);
  if (!known && (!/^[A-Z0-9&_.-]{1,40}$/.test(tradingsymbol) || derivative !== DERIVATIVE_NAME.test(tradingsymbol)))
    throw input('Invalid `tradingsymbol`.');
  return {
    token: known?.token ?? 1,
    lot: known?.lot ?? 1,
    tick: known?.tick ?? 0.05,
    price: known?.price ?? 100,
    freeze: known?.freeze ?? 100_000,
  };
}

const VARIETIES = ['regular', 'amo', 'co', 'iceberg', 'auction'];
const ORDER_TYPES = ['MARKET', 'LIMIT', 'SL', 'SL-M'];
const PRODUCTS = ['CNC', 'MIS', 'NRML', 'MTF', 'CO'];

function number(form: Record<string, string | undefined>, key: string): number | undefined {
  const text = form[key];
  if (text === undefined || text === '') return undefined;
  const value = Number(text);
  if (!Number.isFinite(value)) throw input(`Invalid \`${key}\`.`);
  return value;
}

function onTick(value: number, tick: number): boolean {
  return Math.abs(value / tick - Math.round(value / tick)) < 1e-6;
}

export interface CheckedOrder {
  instrument: FakeInstrument;
  quantity: number;
  price: number;
  trigger: number;
}

/** Checks a placement form for `variety`; returns the instrument and the numbers. */
export function checkPlacement(variety: string, form: Record<string, string | undefined>): CheckedOrder {
  if (!VARIETIES.includes(variety)) throw input('Invalid `variety`.');
  for (const key of ['tradingsymbol', 'exchange', 'transaction_type', 'order_type', 'quantity', 'product'])
    if (!form[key]) throw input(`Missing \`${key}\`.`);
  const exchange = form.exchange ?? '';
  if (![...CASH, ...DERIVATIVE].includes(exchange)) throw input('Invalid `exchange`.');
  const instrument = instrumentOf(exchange, form.tradingsymbol ?? '');
  if (form.transaction_type !== 'BUY' && form.transaction_type !== 'SELL') throw input('Invalid `transaction_type`.');
  const type = form.order_type ?? '';
  if (!ORDER_TYPES.includes(type)) throw input('Invalid `order_type`.');
  const product = form.product ?? '';
  if (!PRODUCTS.includes(product)) throw input('Invalid `product`.');
  if ((product === 'CNC' || product === 'MTF') && !CASH.includes(exchange))
    throw input(`${product} is not allowed for this segment.`);
  if (product === 'NRML' && !DERIVATIVE.includes(exchange)) throw input('NRML is not allowed for equity.');
  if ((product === 'CO') !== (variety === 'co')) throw input('Cover orders take product CO.');
  const quantity = number(form, 'quantity') ?? 0;
  if (!Number.isInteger(quantity) || quantity <= 0) throw input('Invalid `quantity`.');
  if (quantity % instrument.lot !== 0) throw input(`Quantity should be a multiple of lot size ${instrument.lot}.`);
  if (quantity > instrument.freeze && form.autoslice !== 'true')
    throw input(`Quantity exceeds the freeze limit of ${instrument.freeze}; place it with autoslice.`);
  const price = number(form, 'price') ?? 0;
  const trigger = number(form, 'trigger_price') ?? 0;
  if ((type === 'LIMIT' || type === 'SL') && !(price > 0)) throw input('Missing `price`.');
  if ((type === 'SL' || type === 'SL-M' || variety === 'co') && !(trigger > 0)) throw input('Missing `trigger_price`.');
  if (!onTick(price, instrument.tick) || !onTick(trigger, instrument.tick))
    throw input(`Price should be a multiple of tick size ${instrument.tick}.`);
  if (type === 'SL') {
    const wrongSide = form.transaction_type === 'BUY' ? trigger > price : trigger < price;
    if (wrongSide) throw input('Trigger price for stoploss buy orders should be lower than the limit price.');
  }
  checkMarketProtection(type, form);
  checkVariety(variety, type, quantity, form);
  checkValidity(form);
  const tag = form.tag;
  if (tag !== undefined && tag.length > 20) throw input('Tag length cannot be more than 20 characters.');
  if (tag !== undefined && !/^[A-Za-z0-9]*$/.test(tag)) throw input('Tag should be alphanumeric.');
  return { instrument, quantity, price, trigger };
}

function checkMarketProtection(type: string, form: Record<string, string | undefined>): void {
  const protection = number(form, 'market_protection');
  if (type !== 'MARKET' && type !== 'SL-M') return;
  if (protection === undefined || protection === 0)
    throw input('Market orders without market protection are not allowed. Set market_protection.');
  if (protection !== -1 && !(protection >= 1 && protection <= 100)) throw input('Invalid `market_protection`.');
}

function checkVariety(variety: string, type: string, quantity: number, form: Record<string, string | undefined>) {
  if (variety === 'co' && type !== 'MARKET' && type !== 'LIMIT')
    throw input('Cover orders are market or limit orders.');
  if (variety !== 'iceberg') return;
  const legs = number(form, 'iceberg_legs') ?? 0;
  const size = number(form, 'iceberg_quantity') ?? 0;
  if (!Number.isInteger(legs) || legs < 2 || legs > 10) throw input('Iceberg legs should be between 2 and 10.');
  if (!(size > 0) || size * legs < quantity) throw input('Invalid `iceberg_quantity`.');
}

function checkValidity(form: Record<string, string | undefined>): void {
  const validity = form.validity ?? 'DAY';
  if (!['DAY', 'IOC', 'TTL'].includes(validity)) throw input('Invalid `validity`.');
  const ttl = number(form, 'validity_ttl');
  if ((validity === 'TTL') !== (ttl !== undefined)) throw input('Invalid `validity_ttl`.');
}
