// POST /api/v1/accounts/{id}/orders: an order for one of the caller's accounts, through the one
// signal path (modules/signals submitSignal) as if it came to the account's hook: the same order
// language and validation, credits, exactly-once storage and broker call. The account's hook is
// the REST API's own (hooks.is_api), made on the first order and never listed; its idempotency
// keys are the caller's `Idempotency-Key` (else client_id or the body, as for a hook).
import { isDeepStrictEqual } from 'node:util';
import { withoutByteOrderMark } from '@router/orders';
import { API_STATUSES, type ApiOrder } from '@router/shared/api';
import { newKey, newShortKey } from '../../crypto/random.ts';
import { findSignalRequest, findUserSignal } from '../../db/repositories/api-orders.repository.ts';
import { insertApiHook, selectApiHookForSignal } from '../../db/repositories/hooks.repository.ts';
import type { ApiStatus } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { type HookEntry, toHookEntry } from '../hooks/index.ts';
import { type SignalRuntime, submitSignal } from '../signals/index.ts';
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
      shortKey: `api_${newShortKey()}`,
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
  address: string;
  receivedAt: number;
}

export type PlaceOrderResult =
  | { statusCode: 201; order: ApiOrder }
  | { statusCode: number; error: { status: ApiStatus; message: string } };

const apiStatus = (value: unknown): ApiStatus => API_STATUSES.find((status) => status === value) ?? 'Error';

export const KEY_REUSED = 'Idempotency-Key: already used for another order; send a new key for a new order';

/**
 * Whether the order a key names was placed with this body: a retry sends the same order (its JSON
 * compared as values: key order and spacing aside); another order under a used key is refused,
 * not answered as the first (the signal path, keyed by it alone, placed nothing for it).
 */
async function sameRequest(services: Services, req: PlaceOrderRequest, signalId: string): Promise<boolean> {
  const stored = await findSignalRequest(services.db, req.userId, signalId);
  const text = withoutByteOrderMark(req.body ?? '');
  try {
    // jsonb keeps no -0.
    return isDeepStrictEqual(
      stored,
      JSON.parse(text, (_key, value: unknown) => (Object.is(value, -0) ? 0 : value)),
    );
  } catch {
    return stored === text;
  }
}

export async function placeApiOrder(
  services: Services,
  signals: SignalRuntime,
  req: PlaceOrderRequest,
): Promise<PlaceOrderResult> {
  const entry = await apiHookEntry(services, req.userId, req.account);
  const { answer, signalId, repeat } = await submitSignal(signals, {
    entry,
    body: req.body,
    address: req.address,
    receivedAt: req.receivedAt,
    // Another application (or token) sending the same key or order is another order, not a repeat.
    client: req.client,
    ...(req.idempotencyKey !== undefined ? { idempotencyKey: req.idempotencyKey } : {}),
  });
  // Only a repeat is compared: a new order was stored with this very body.
  if (repeat && signalId && req.idempotencyKey !== undefined && !(await sameRequest(services, req, signalId))) {
    return { statusCode: 400, error: { status: 'ValidationError', message: KEY_REUSED } };
  }
  if (answer.statusCode !== 201 || !signalId) {
    const { status, message } = answer.body;
    return { statusCode: answer.statusCode, error: { status: apiStatus(status), message: String(message) } };
  }
  const row = await findUserSignal(services.db, req.userId, signalId);
  if (!row) throw new Error('a stored signal was not found');
  return { statusCode: 201, order: toApiOrder(row, overlayFromAnswer(signalId, answer.body, entry.title)) };
}
