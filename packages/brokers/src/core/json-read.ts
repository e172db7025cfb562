// Reading broker JSON without trusting its shape: fields that are missing or of another type
// read as undefined, and the adapter decides what that means.
//   {"qty": "2.5", "filled_avg_price": null}   → decimalField(x, 'qty') = 2.5
//   {"orders": {"order": {...}}} / [{...}] / "null"   → listOf(...) (Tradier's XML-born JSON)

export type JsonRecord = Record<string, unknown>;

export function asRecord(value: unknown): JsonRecord | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as JsonRecord) : undefined;
}

/** A string field; numbers are spelled as strings (ids come as either). */
export function stringField(value: unknown, key: string): string | undefined {
  const field = asRecord(value)?.[key];
  if (typeof field === 'string') return field;
  if (typeof field === 'number' && Number.isFinite(field)) return String(field);
  return undefined;
}

/** A number field given as a JSON number or a decimal string ("262113.632"). */
export function decimalField(value: unknown, key: string): number | undefined {
  const field = asRecord(value)?.[key];
  if (typeof field === 'number') return Number.isFinite(field) ? field : undefined;
  if (typeof field === 'string' && field.trim() !== '') {
    const parsed = Number(field);
    return Number.isFinite(parsed) ? parsed : undefined;
  }
  return undefined;
}

/** A list that may come as an array, a single object, or nothing ("null", null, absent). */
export function listOf(value: unknown): JsonRecord[] {
  if (Array.isArray(value)) return value.map(asRecord).filter((item): item is JsonRecord => item !== undefined);
  const single = asRecord(value);
  return single ? [single] : [];
}

/**
 * A decimal as brokers want it in a request: no exponent, no float noise
 * (185.10000000000002 → "185.1", 1e-7 → "0.0000001"), at most 9 decimals.
 */
export function decimalString(value: number): string {
  if (Number.isInteger(value)) return BigInt(value).toString();
  return value.toFixed(9).replace(/0+$/, '').replace(/\.$/, '');
}

/**
 * A quantity as brokers want it: like decimalString, but cut (never rounded up) to 9 decimals, so
 * an order never asks for more than was signalled (1.9999999999 → "1.999999999", not "2").
 */
export function quantityString(value: number): string {
  if (Number.isInteger(value)) return BigInt(value).toString();
  // 15 significant digits take float noise out (2.0999999999999996 → 2.1) before the cut.
  const [whole = '0', fraction = ''] = Number(value.toPrecision(15)).toFixed(12).split('.');
  return `${whole}.${fraction.slice(0, 9)}`.replace(/0+$/, '').replace(/\.$/, '');
}
