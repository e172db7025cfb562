// Order rules of the Tradier protocol fake, as Tradier states them: form fields by class, indexed
// multi-leg fields, tags of letters, digits and dashes. Refusals are 400 {"errors": {"error": [...]}}.

export class TradierRefusal extends Error {}

export interface FakeTradierOrder extends Record<string, unknown> {
  id: number;
  status: string;
  symbol: string;
  side: string;
  quantity: number;
  tag?: string;
}

const refuse = (message: string) => new TradierRefusal(message);
const OCC = /^([A-Z]{1,6})\d{6}[CP]\d{8}$/;
const TYPES: Record<string, string[]> = {
  equity: ['market', 'limit', 'stop', 'stop_limit'],
  option: ['market', 'limit', 'stop', 'stop_limit'],
  multileg: ['market', 'debit', 'credit', 'even'],
};
const EQUITY_SIDES = ['buy', 'buy_to_cover', 'sell', 'sell_short'];
const OPTION_SIDES = ['buy_to_open', 'buy_to_close', 'sell_to_open', 'sell_to_close'];

export function quoteOf(instrument: string): number {
  return OCC.test(instrument) ? 2.5 : 100;
}

function whole(value: string | undefined, field: string): number {
  const quantity = Number(value);
  if (!value || !Number.isInteger(quantity) || quantity <= 0) throw refuse(`Invalid Parameter: ${field}`);
  return quantity;
}

function option(value: string | undefined, underlying: string, field: string): string {
  const match = OCC.exec(value ?? '');
  if (!match) throw refuse(`Invalid Parameter: ${field}`);
  if (match[1] !== underlying) throw refuse(`${field} ${value} is not an option on ${underlying}`);
  return value ?? '';
}

export interface CheckedOrder {
  legs: Array<{ instrument: string; side: string; quantity: number }>;
  /** What buying it would cost (0 for sells and credits). */
  cost: number;
}

/** Validates a POST /v1/accounts/{id}/orders form as Tradier does. */
export function checkOrderForm(form: Record<string, string>): CheckedOrder {
  const cls = form.class ?? '';
  if (!TYPES[cls]) throw refuse('Invalid Parameter: class');
  const symbol = form.symbol ?? '';
  if (!/^[A-Z.]{1,10}$/.test(symbol)) throw refuse('Invalid Parameter: symbol');
  if (symbol === 'NOPE') throw refuse(`Invalid symbol: ${symbol}`);
  const type = form.type ?? '';
  if (!TYPES[cls]?.includes(type)) throw refuse('Invalid Parameter: type');
  if (!['day', 'gtc', 'pre', 'post'].includes(form.duration ?? '')) throw refuse('Invalid Parameter: duration');
  if (form.tag !== undefined && !/^[A-Za-z0-9-]{1,255}$/.test(form.tag)) throw refuse('Invalid Parameter: tag');
  const price = form.price === undefined ? undefined : Number(form.price);
  if (price !== undefined && !(price > 0)) throw refuse('Invalid Parameter: price');
  if (['limit', 'stop_limit', 'debit', 'credit'].includes(type) && price === undefined)
    throw refuse('Missing Parameter: price');
  if (['stop', 'stop_limit'].includes(type) && !(Number(form.stop) > 0)) throw refuse('Missing Parameter: stop');
  if (['market', 'stop', 'even'].includes(type) && price !== undefined)
    throw refuse(`price is not allowed for ${type} orders`);
  if (cls === 'multileg') return checkLegs(form, symbol, type, price);
  const side = form.side ?? '';
  const isOption = cls === 'option';
  if (!(isOption ? OPTION_SIDES : EQUITY_SIDES).includes(side)) throw refuse('Invalid Parameter: side');
  const instrument = isOption ? option(form.option_symbol, symbol, 'option_symbol') : symbol;
  if (!isOption && form.option_symbol !== undefined) throw refuse('option_symbol is only for option orders');
  const quantity = whole(form.quantity, 'quantity');
  const unit = (price ?? quoteOf(instrument)) * (isOption ? 100 : 1);
  return { legs: [{ instrument, side, quantity }], cost: side.startsWith('buy') ? quantity * unit : 0 };
}

function checkLegs(
  form: Record<string, string>,
  symbol: string,
  type: string,
  price: number | undefined,
): CheckedOrder {
  const legs: CheckedOrder['legs'] = [];
  for (let i = 0; form[`option_symbol[${i}]`] !== undefined; i++) {
    const side = form[`side[${i}]`] ?? '';
    if (!OPTION_SIDES.includes(side)) throw refuse(`Invalid Parameter: side[${i}]`);
    const instrument = option(form[`option_symbol[${i}]`], symbol, `option_symbol[${i}]`);
    legs.push({ instrument, side, quantity: whole(form[`quantity[${i}]`], `quantity[${i}]`) });
  }
  if (legs.length < 2 || legs.length > 4) throw refuse('A multileg order needs 2 to 4 legs');
  const quantity = Math.max(...legs.map((leg) => leg.quantity));
  return {
    legs,
    cost: type === 'debit' || type === 'market' ? quantity * 100 * (price ?? quoteOf(legs[0]?.instrument ?? '')) : 0,
  };
}
