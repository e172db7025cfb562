// SPEC §9: locale en-US; prices are stored in their currency's minor units (cents), as Stripe
// keeps them.
const LOCALE = 'en-US';

const DATE_TIME: Intl.DateTimeFormatOptions = {
  day: 'numeric',
  month: 'numeric',
  year: 'numeric',
  hour: 'numeric',
  minute: 'numeric',
  hourCycle: 'h23',
};
const dateTimeFormat = new Intl.DateTimeFormat(LOCALE, DATE_TIME);
const dateFormat = new Intl.DateTimeFormat(LOCALE, { day: 'numeric', month: 'numeric', year: 'numeric' });
/** Stripe's zero-decimal currencies: an amount is whole units (500 JPY is ¥500). */
const ZERO_DECIMAL = new Set('BIF CLP DJF GNF JPY KMF KRW MGA PYG RWF UGX VND VUV XAF XOF XPF'.split(' '));
/** Stripe's three-decimal currencies: an amount is thousandths. */
const THREE_DECIMAL = new Set('BHD JOD KWD OMR TND'.split(' '));

/** The decimals of a currency's amounts as Stripe counts them (USD 2, JPY 0, KWD 3). */
export const currencyDecimals = (currency: string): number => {
  const code = currency.toUpperCase();
  return ZERO_DECIMAL.has(code) ? 0 : THREE_DECIMAL.has(code) ? 3 : 2;
};

const currencyFormats = new Map<string, Intl.NumberFormat | null>();

function currencyFormat(code: string, decimals: number): Intl.NumberFormat | null {
  if (!currencyFormats.has(code)) {
    let format: Intl.NumberFormat | null = null;
    try {
      format = new Intl.NumberFormat(LOCALE, {
        style: 'currency',
        currency: code,
        minimumFractionDigits: decimals,
        maximumFractionDigits: decimals,
      });
    } catch {
      // Not an ISO 4217 code this browser knows: the amount with the code after it.
    }
    currencyFormats.set(code, format);
  }
  return currencyFormats.get(code) ?? null;
}
const percentFormat = new Intl.NumberFormat(LOCALE, {
  style: 'percent',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

export type DateInput = Date | number | string;

const toDate = (value: DateInput): Date => (value instanceof Date ? value : new Date(value));

/** 1/31/2022, 14:05 (local time zone). */
export const formatDateTime = (value: DateInput): string => dateTimeFormat.format(toDate(value));

/** 1/31/2022 (local time zone). */
export const formatDate = (value: DateInput): string => dateFormat.format(toDate(value));

/**
 * An amount in its currency's minor units (Stripe's `currency`, any case; USD by default):
 * 123456 usd → $1,234.56, 123456 eur → €1,234.56, 500 jpy → ¥500.
 */
export const formatCurrency = (amount: number, currency = 'usd'): string => {
  const code = currency.toUpperCase();
  const decimals = currencyDecimals(code);
  const units = amount / 10 ** decimals;
  return currencyFormat(code, decimals)?.format(units) ?? `${units.toFixed(decimals)} ${code}`;
};

/** A ratio as percent: 0.1234 → 12.34%. */
export const formatPercent = (ratio: number): string => percentFormat.format(ratio);

/** 2022-01-31T14:05:59Z: the ISO time rounded to whole seconds (hover titles). */
export const formatIsoSeconds = (value: DateInput): string =>
  new Date(Math.round(toDate(value).getTime() / 1000) * 1000).toISOString().replace('.000Z', 'Z');

const countFormat = new Intl.NumberFormat(LOCALE, { maximumFractionDigits: 0 });

/** An integer with en-US grouping: 12345 → 12,345. */
export const formatCount = (value: number): string => countFormat.format(value);

const quantityFormat = new Intl.NumberFormat(LOCALE, { maximumFractionDigits: 10 });

/** An order quantity with en-US grouping and its decimals (crypto, fractional shares): 1,500 · 0.0015. */
export const formatQuantity = (value: number): string => quantityFormat.format(value);

/** An order price with en-US grouping and the decimals it has (float noise past 10 dropped): 64,000.25 · 0.00001234. */
export const formatPrice = formatQuantity;

// The buckets are the browser's own hours, days, weeks and months (the chart asks for its zone),
// or those of the zone the server counted them in when it did not know the browser's (UTC).
const bucketOptions = {
  hour: { hour: 'numeric', minute: 'numeric', hourCycle: 'h23' },
  day: { month: 'numeric', day: 'numeric' },
  week: { month: 'numeric', day: 'numeric' },
  month: { month: 'short', year: 'numeric' },
} as const satisfies Record<string, Intl.DateTimeFormatOptions>;

const bucketTitleOptions = {
  hour: DATE_TIME,
  day: { day: 'numeric', month: 'numeric', year: 'numeric' },
  week: { day: 'numeric', month: 'numeric', year: 'numeric' },
  month: { month: 'long', year: 'numeric' },
} as const satisfies Record<string, Intl.DateTimeFormatOptions>;

export type BucketInterval = keyof typeof bucketOptions;

const bucketFormats = new Map<string, Intl.DateTimeFormat>();

/** One format per (kind, interval, zone); undefined zone = the browser's. */
function bucketFormat(kind: 'label' | 'title', interval: BucketInterval, timeZone: string | undefined) {
  const key = `${kind} ${interval} ${timeZone ?? ''}`;
  let format = bucketFormats.get(key);
  if (!format) {
    const options = kind === 'label' ? bucketOptions[interval] : bucketTitleOptions[interval];
    format = new Intl.DateTimeFormat(LOCALE, timeZone ? { ...options, timeZone } : options);
    bucketFormats.set(key, format);
  }
  return format;
}

/** Axis label of a bucket: 14:00 · 1/31 · 1/31 · Jan 2022. */
export const formatBucket = (value: DateInput, interval: BucketInterval, timeZone?: string): string =>
  bucketFormat('label', interval, timeZone).format(toDate(value));

/** Tooltip title of a bucket: 1/31/2022, 14:00 · 1/31/2022 · Week of 1/31/2022 · January 2022. */
export const formatBucketTitle = (value: DateInput, interval: BucketInterval, timeZone?: string): string => {
  const text = bucketFormat('title', interval, timeZone).format(toDate(value));
  return interval === 'week' ? `Week of ${text}` : text;
};
