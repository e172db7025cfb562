// A broker's messages mapped to our error kinds, as a table in its descriptor (ccxt's
// `exceptions`): `exact` matches the whole message, `broad` a part of it (case-insensitive).
//   { exact: { 'EOrder:Insufficient funds': 'InsufficientFunds' },
//     broad: { 'buying power': 'InsufficientFunds', 'duplicate': 'DuplicateOrder' } }
import type { BrokerErrorKind } from './errors.ts';

export interface ExceptionTable {
  exact?: Readonly<Record<string, BrokerErrorKind>>;
  broad?: Readonly<Record<string, BrokerErrorKind>>;
}

/** The kind a broker message names: an exact entry first, then the longest broad entry it contains. */
export function matchException(
  table: ExceptionTable | undefined,
  message: string | undefined,
): BrokerErrorKind | undefined {
  if (!table || !message) return undefined;
  const text = message.trim();
  const exact = table.exact?.[text];
  if (exact) return exact;
  const lower = text.toLowerCase();
  let found: [string, BrokerErrorKind] | undefined;
  for (const entry of Object.entries(table.broad ?? {})) {
    if (lower.includes(entry[0].toLowerCase()) && entry[0].length > (found?.[0].length ?? -1)) found = entry;
  }
  return found?.[1];
}
