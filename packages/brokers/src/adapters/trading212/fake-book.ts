// The Trading 212 fake's account: instruments, cash, positions and orders, the request checks
// Trading 212 makes, and its per-endpoint rate limits (from the API description, on the
// injected clock). Refusals use its codes: {"code":"InsufficientFreeForStocksException", ...}.
export interface FakeInstrument {
  ticker: string;
  shortName: string;
  type: string;
  currencyCode: string;
  price: number;
}

export interface FakeT212Order {
  id: number;
  ticker: string;
  quantity: number;
  type: 'MARKET' | 'LIMIT' | 'STOP' | 'STOP_LIMIT';
  status: string;
  createdAt: string;
  limitPrice?: number;
  stopPrice?: number;
  timeInForce?: string;
  extendedHours?: boolean;
  filledQuantity: number;
  fillPrice?: number;
}

export const DEFAULT_INSTRUMENTS: FakeInstrument[] = [
  { ticker: 'AAPL_US_EQ', shortName: 'AAPL', type: 'STOCK', currencyCode: 'USD', price: 180 },
  { ticker: 'MSFT_US_EQ', shortName: 'MSFT', type: 'STOCK', currencyCode: 'USD', price: 400 },
  { ticker: 'VUSAl_EQ', shortName: 'VUSA', type: 'ETF', currencyCode: 'GBP', price: 90 },
  { ticker: 'VODl_EQ', shortName: 'VOD', type: 'STOCK', currencyCode: 'GBX', price: 0.7 },
  { ticker: 'SHELl_EQ', shortName: 'SHEL', type: 'STOCK', currencyCode: 'GBX', price: 27 },
  { ticker: 'SHELa_EQ', shortName: 'SHEL', type: 'STOCK', currencyCode: 'EUR', price: 31 },
];

/** Requests per period, per account (the API description's "Rate limit" lines). */
export const RATE_LIMITS: Array<{ method: string; path: RegExp; count: number; periodMs: number }> = [
  { method: 'GET', path: /^\/api\/v0\/equity\/metadata\/instruments$/, count: 1, periodMs: 50_000 },
  { method: 'GET', path: /^\/api\/v0\/equity\/account\/summary$/, count: 1, periodMs: 5_000 },
  { method: 'GET', path: /^\/api\/v0\/equity\/positions$/, count: 1, periodMs: 1_000 },
  { method: 'GET', path: /^\/api\/v0\/equity\/orders$/, count: 1, periodMs: 5_000 },
  { method: 'GET', path: /^\/api\/v0\/equity\/orders\/\d+$/, count: 1, periodMs: 1_000 },
  { method: 'GET', path: /^\/api\/v0\/equity\/history\/orders$/, count: 6, periodMs: 60_000 },
  { method: 'POST', path: /^\/api\/v0\/equity\/orders\/market$/, count: 50, periodMs: 60_000 },
  { method: 'POST', path: /^\/api\/v0\/equity\/orders\/(limit|stop|stop_limit)$/, count: 1, periodMs: 2_000 },
  { method: 'DELETE', path: /^\/api\/v0\/equity\/orders\/\d+$/, count: 50, periodMs: 60_000 },
];

export class T212Refusal extends Error {
  readonly status: number;
  readonly code: string | undefined;
  constructor(status: number, code?: string, clarification?: string) {
    super(clarification ?? code ?? String(status));
    this.status = status;
    this.code = code;
  }
  body(): Record<string, string> | undefined {
    return this.code ? { code: this.code, clarification: this.message } : undefined;
  }
}

type Json = Record<string, unknown>;
const TYPES = { market: 'MARKET', limit: 'LIMIT', stop: 'STOP', stop_limit: 'STOP_LIMIT' } as const;

/** Checks a new order as Trading 212 does; returns it unfilled. */
export function newOrder(
  kind: keyof typeof TYPES,
  body: Json,
  instruments: FakeInstrument[],
  id: number,
  now: number,
): FakeT212Order {
  const { ticker, quantity, limitPrice, stopPrice, timeValidity } = body;
  if (typeof ticker !== 'string' || ticker === '') throw new T212Refusal(400, 'TickerMissing', 'ticker is required');
  if (!instruments.some((instrument) => instrument.ticker === ticker))
    throw new T212Refusal(400, 'InstrumentNotFound', `${ticker} not found`);
  if (typeof quantity !== 'number' || quantity === 0)
    throw new T212Refusal(400, 'QuantityMissing', 'quantity must not be 0');
  if (Math.abs(quantity * 1e8 - Math.round(quantity * 1e8)) > 1e-3)
    throw new T212Refusal(400, 'QuantityPrecisionMismatch');
  const needsLimit = kind === 'limit' || kind === 'stop_limit';
  const needsStop = kind === 'stop' || kind === 'stop_limit';
  if (needsLimit && !(typeof limitPrice === 'number' && limitPrice > 0))
    throw new T212Refusal(400, 'LimitPriceMissing');
  if (needsStop && !(typeof stopPrice === 'number' && stopPrice > 0)) throw new T212Refusal(400, 'StopPriceMissing');
  if (
    kind !== 'market' &&
    timeValidity !== undefined &&
    timeValidity !== 'DAY' &&
    timeValidity !== 'GOOD_TILL_CANCEL'
  ) {
    throw new T212Refusal(400, 'InvalidValue', 'timeValidity must be DAY or GOOD_TILL_CANCEL');
  }
  return {
    id,
    ticker,
    quantity,
    type: TYPES[kind],
    status: 'NEW',
    createdAt: new Date(now).toISOString(),
    filledQuantity: 0,
    ...(needsLimit ? { limitPrice: Number(limitPrice) } : {}),
    ...(needsStop ? { stopPrice: Number(stopPrice) } : {}),
    ...(kind !== 'market'
      ? { timeInForce: String(timeValidity ?? 'DAY') }
      : { extendedHours: body.extendedHours === true }),
  };
}

/** The answer's shape (Order in the API description). */
export function orderView(order: FakeT212Order, instruments: FakeInstrument[]): Json {
  const instrument = instruments.find((item) => item.ticker === order.ticker);
  const { fillPrice: _, ...rest } = order;
  return {
    ...rest,
    side: order.quantity < 0 ? 'SELL' : 'BUY',
    strategy: 'QUANTITY',
    initiatedFrom: 'API',
    currency: instrument?.currencyCode,
    instrument: {
      ticker: order.ticker,
      name: instrument?.shortName,
      currency: instrument?.currencyCode,
      isin: 'US0378331005',
    },
  };
}
