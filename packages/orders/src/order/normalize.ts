// The entry point of the order language: a webhook body in, a normalized Order out, or a refusal
// naming the field. On the hook's hot path, so nothing here is built per call.
import { OrderValidationError } from '../errors.ts';
import type { Order, Provider } from '../types.ts';
import { readBody } from './body.ts';
import { buildOrder } from './build-order.ts';
import { expandIndexedLegs } from './indexed-legs.ts';
import { checkOrderRules } from './order-rules.ts';
import { checkProviderValues, checkSupported } from './provider-rules.ts';
import { parseRawOrder } from './raw-schema.ts';
import { schemaIssueError } from './schema-issues.ts';

export interface NormalizeOptions {
  /** Validate against this provider's reference; without it only the provider-independent rules apply. */
  provider?: Provider | undefined;
  /** Clock (ms since epoch) for resolving 1 and 2 digit futures years. */
  now?: (() => number) | undefined;
}

export interface OrderRefusal {
  field: string;
  message: string;
}

export type NormalizeResult = { ok: true; order: Order } | { ok: false; error: OrderRefusal };

/** Normalizes a webhook body (an object or its JSON text). Never throws. */
export function normalizeOrder(input: unknown, options: NormalizeOptions = {}): NormalizeResult {
  try {
    return { ok: true, order: normalizeOrderOrThrow(input, options) };
  } catch (error) {
    const refusal = asValidationError(error);
    return { ok: false, error: { field: refusal.field, message: refusal.message } };
  }
}

/** Like normalizeOrder, but throws an OrderValidationError (and nothing else) on refusal. */
export function normalizeOrderOrThrow(input: unknown, options: NormalizeOptions = {}): Order {
  try {
    const { body, legFieldName } = expandIndexedLegs(readBody(input));
    const parsed = parseRawOrder(body);
    if (!parsed.success) throw schemaIssueError(parsed.error.issues, legFieldName);
    const raw = parsed.data;
    const { provider } = options;
    if (provider) checkSupported(raw, provider, legFieldName);
    const order = buildOrder(raw, { now: options.now ?? Date.now, legFieldName, provider });
    checkOrderRules(order, legFieldName);
    if (provider) checkProviderValues(order, raw, provider, legFieldName);
    return order;
  } catch (error) {
    throw asValidationError(error);
  }
}

/** Whatever went wrong inside (a hostile getter, a stack overflow) leaves as a typed refusal. */
function asValidationError(error: unknown): OrderValidationError {
  if (error instanceof OrderValidationError) return error;
  return new OrderValidationError('body', 'body: invalid order');
}
