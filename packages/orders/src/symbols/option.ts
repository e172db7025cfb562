// Option symbols in the OCC (OSI) standard and its common shorthands, all one contract:
//   "AAPL  240119C00150000"   root padded to 6, YYMMDD expiry, C or P, strike × 1000 in 8 digits
//   "AAPL_240119C00150000"    "AAPL240119C00150000"    "AAPL240119C150"    "AAPL 240119P150.5"
// A strike of exactly 8 digits is the OCC thousandths form; any other strike is in currency units.
// Canonical: the 21-character OCC form with padding spaces.
import { OrderValidationError } from '../errors.ts';
import type { ParsedSymbol } from './parsed-symbol.ts';

const OCC = /^([A-Z][A-Z0-9.]{0,5}?)(?: +|_)?(\d{2})(\d{2})(\d{2})([CP])(\d{1,8}(?:\.\d{1,3})?)$/;

export function parseOption(symbol: string, field: string): ParsedSymbol | undefined {
  const match = OCC.exec(symbol);
  if (!match) return undefined;
  const [, root = '', yy = '', mm = '', dd = '', right = 'C', strikeText = ''] = match;
  const year = 2000 + Number(yy);
  const month = Number(mm);
  const day = Number(dd);
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) {
    throw new OrderValidationError(field, `${field}: option expiry ${yy}${mm}${dd} is not a date (YYMMDD)`);
  }
  const thousandths = /^\d{8}$/.test(strikeText) ? Number(strikeText) : Math.round(Number(strikeText) * 1000);
  if (thousandths <= 0 || thousandths > 99_999_999) {
    throw new OrderValidationError(field, `${field}: option strike ${strikeText} is out of range`);
  }
  const occ = `${root.padEnd(6, ' ')}${yy}${mm}${dd}${right}${String(thousandths).padStart(8, '0')}`;
  return {
    canonical: occ,
    class: 'option',
    recognized: true,
    parts: {
      kind: 'option',
      root,
      expiry: `${year}-${mm}-${dd}`,
      right: right === 'P' ? 'P' : 'C',
      strike: thousandths / 1000,
    },
  };
}

/**
 * Whether an option has certainly stopped trading at `now`: it trades until its expiry day's close,
 * and a second day's margin covers the exchange's time zone. AAPL  200117C00150000 fills nowhere.
 */
export function isOptionExpired(expiry: string, now: number): boolean {
  return now >= Date.parse(`${expiry}T00:00:00Z`) + 2 * 86_400_000;
}
