// Our client order id (the signal id) in the form each exchange accepts. Derived ids are a
// hash of ours, so the same signal always maps to the same exchange id and an order can be
// found again by it (reconciliation) without storing anything.
import { createHash } from 'node:crypto';

const digest = (id: string) => createHash('sha256').update(id).digest('hex');

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The id in UUID form: itself when it is one, else a UUID-shaped hash. */
export function uuidFor(id: string): string {
  if (UUID.test(id)) return id.toLowerCase();
  const hex = digest(id);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** The id if it has at most `max` characters from `allowed`, else a hex hash of that length. */
export function boundedId(id: string, max: number, allowed = /^[A-Za-z0-9_-]+$/): string {
  if (id.length <= max && allowed.test(id)) return id;
  return digest(id).slice(0, max);
}

/** A positive integer below 2^53 (exact in JSON) for exchanges with numeric client ids. */
export function numericId(id: string): number {
  if (/^[1-9][0-9]{0,14}$/.test(id)) return Number(id);
  return Number.parseInt(digest(id).slice(0, 13), 16) || 1;
}
