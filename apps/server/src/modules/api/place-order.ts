// POST /api/v1/accounts/{id}/orders: an order for one of the caller's accounts, through the one
// signal path (modules/signals submitSignal) as if it came to the account's hook: the same order
// language and validation, credits, exactly-once storage and broker call. The account's hook is
// the REST API's own (hooks.is_api), made on the first order and never listed; its idempotency
// keys are the caller's `Idempotency-Key` (else client_id or the body, as for a hook).
import { API_SHORT_KEY_PREFIX } from '@router/shared';
import { API_STATUSES, type ApiOrder } from '@router/shared/api';
import { newKey, newShortKey } from '../../crypto/random.ts';
import { findUserSignal } from '../../db/repositories/api-orders.repository.ts';
import { insertApiHook, selectApiHookForSignal } from '../../db/repositories/hooks.repository.ts';
import { type ApiStatus, UNAVAILABLE_RETRY_AFTER_S } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { brokerAppError } from '../connectors/broker-error.ts';
import { type HookEntry, toHookEntry } from '../hooks/index.ts';
import { type SignalRuntime, submitSignal } from '../signals/index.ts';
import type { Answer } from '../signals/types.ts';
import type { ResolvedAccount } from './accounts.ts';
import { overlayFromAnswer, toApiOrder } from './order-view.ts';

/** Shown in the activity log for orders of the REST API. */
export const API_HOOK_NAME = 'REST API';

async function apiHookEntry(services: Services, userId: number, target: ResolvedAccount): Promise<HookEntry> {
  const { connector, account } = target;
  let row = await selectApiHookForSignal(services.db, connector.id, account.id);
  if (!row) {
    // `api_` keeps the short key off /hook (SHORT_KEY_PATTERN): it is no webhook URL.
    await insertApiHook(services.db, {
      key: newKey(),
      shortKey: `${API_SHORT_KEY_PREFIX}${newShortKey()}`,
      userId,
      connectorId: connector.id,
      accountId: account.id,
      name: API_HOOK_NAME,
    });
    row = await selectApiHookForSignal(services.db, connector.id, account.id);
  }
  if (!row) throw new Error('the API hook was not made');
  return toHookEntry(services, row);
}

export interface PlaceOrderRequest {
  userId: number;
  account: ResolvedAccount;
  /** The body as text: the order language is parsed by the signal path, as for a hook. */
  body: string | undefined;
  idempotencyKey: string | undefined;
  /** ApiPrincipal.client: an Idempotency-Key (or client_id, or body) names an order of this client only. */
  client: string;
  /** ApiPrincipal.caller: named on the order's activity entry. */
  caller: string;
  address: string;
  receivedAt: number;
}

export type PlaceOrderResult =
  | { statusCode: 201; order: ApiOrder }
  | { statusCode: number; error: { status: ApiStatus; message: string }; retryAfterS?: number };

const apiStatus = (value: unknown): ApiStatus => API_STATUSES.find((status) => status === value) ?? 'Error';

/**
 * A refusal as the REST API answers it: a broker's failure by the one mapping its other routes use
 * (its rate limit 429 with Retry-After, its outage 503), where the hook answers 400 (SPEC §8);
 * the signal path's own refusals as they are, its 503 (the database failing) with Retry-After.
 */
function refusalOf(answer: Answer): Exclude<PlaceOrderResult, { order: ApiOrder }> {
  if (answer.brokerError) {
    const error = brokerAppError(answer.brokerError);
    const { retryAfterS } = error;
    return { statusCode: error.mapping.http, error: error.toBody(), ...(retryAfterS ? { retryAfterS } : {}) };
  }
  const { status, message } = answer.body;
  const error = { status: apiStatus(status), message: String(message) };
  // Every 503 of the API says when to try again (its document's Retry-After), as the error handler's do.
  if (answer.statusCode === 503) return { statusCode: 503, error, retryAfterS: UNAVAILABLE_RETRY_AFTER_S };
  return { statusCode: answer.statusCode, error };
}

export async function placeApiOrder(
  services: Services,
  signals: SignalRuntime,
  req: PlaceOrderRequest,
): Promise<PlaceOrderResult> {
  const entry = { ...(await apiHookEntry(services, req.userId, req.account)), via: req.caller };
  // An Idempotency-Key reused for another order is refused by the signal path (KEY_REUSED).
  const { answer, signalId } = await submitSignal(signals, {
    entry,
    body: req.body,
    address: req.address,
    receivedAt: req.receivedAt,
    // Another application (or token) sending the same key or order is another order, not a repeat.
    client: req.client,
    ...(req.idempotencyKey !== undefined ? { idempotencyKey: req.idempotencyKey } : {}),
  });
  if (answer.statusCode !== 201 || !signalId) return refusalOf(answer);
  const row = await findUserSignal(services.db, req.userId, signalId);
  if (!row) throw new Error('a stored signal was not found');
  return { statusCode: 201, order: toApiOrder(row, overlayFromAnswer(signalId, answer.body, entry.title)) };
}
