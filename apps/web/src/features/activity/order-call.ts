import { isFailedOrderCall, parseActionMetadata } from '@router/shared';

/** What an Order row from a webhook expands to: request, response and elapsed milliseconds. */
export interface OrderCall {
  request: string;
  /** The normalized order (issue #21); '-' when the call was refused before normalizing. */
  order: string;
  response: string;
  elapsedMs: number | null;
  /** SPEC §2: status containing 'Error' (or a rejected or failed call) is styled danger. */
  failed: boolean;
}

const pretty = (value: unknown): string => {
  if (value === undefined || value === null) return '-';
  if (typeof value === 'string') {
    try {
      return JSON.stringify(JSON.parse(value), null, 2);
    } catch {
      return value;
    }
  }
  return JSON.stringify(value, null, 2);
};

/** The call an Order action recorded, or null for rows that are not webhook calls. */
export function orderCallOf(code: string, metadata: string, order: string | null = null): OrderCall | null {
  if (code !== 'Order') return null;
  const m = parseActionMetadata(metadata);
  if (!('request' in m) && !('response' in m)) return null;
  const elapsed = m.elapsed;
  return {
    request: pretty(m.request),
    order: pretty(order),
    response: pretty(m.response),
    elapsedMs: typeof elapsed === 'number' && Number.isFinite(elapsed) ? elapsed : null,
    failed: isFailedOrderCall(m),
  };
}
