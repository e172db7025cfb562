// Robinhood's client_order_id must be a UUID (WIRE.md §4: "Must be a valid UUID."). Our signal
// id is sent as is when it is one; any other id becomes its name-based UUID (RFC 9562 version 5,
// SHA-1, in a namespace of ours), so the same signal always maps to the same Robinhood id and a
// lookup can compute it again without storing anything.
import { createHash } from 'node:crypto';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The namespace of our signal ids (a fixed random UUID; changing it would orphan placed orders). */
export const SIGNAL_ID_NAMESPACE = '3f8e5c1a-9b2d-4c7e-8a61-5d0f2b9e7c43';

/** UUID version 5 of `name` in `namespace`. */
export function uuidV5(namespace: string, name: string): string {
  const hash = createHash('sha1')
    .update(Buffer.from(namespace.replace(/-/g, ''), 'hex'))
    .update(name, 'utf8')
    .digest();
  hash[6] = ((hash[6] ?? 0) & 0x0f) | 0x50;
  hash[8] = ((hash[8] ?? 0) & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export function robinhoodClientOrderId(signalId: string): string {
  return UUID.test(signalId) ? signalId.toLowerCase() : uuidV5(SIGNAL_ID_NAMESPACE, signalId);
}
