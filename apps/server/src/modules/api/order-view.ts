// A stored signal as the REST API's order (`@router/shared/api` apiOrderSchema). The stored
// status keeps its values (docs/ARCHITECTURE.md "A signal's states"); 'placing' reads 'pending'.
import type { Order } from '@router/orders';
import { API_ORDER_STATUSES, type ApiOrder, type ApiOrderStatus } from '@router/shared/api';
import type { OrderRow } from '../../db/repositories/api-orders.repository.ts';
import { isPendingBody } from '../signals/index.ts';
import { accountId } from './accounts.ts';

const KNOWN: ReadonlySet<string> = new Set(API_ORDER_STATUSES);

function apiStatus(stored: string): ApiOrderStatus {
  if (stored === 'placing') return 'pending';
  return KNOWN.has(stored) ? (stored as ApiOrderStatus) : 'accepted';
}

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const num = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);

/** What the answer told the caller, for a row whose outcome is not written yet. */
export interface AnswerOverlay {
  status: string;
  brokerOrderId: string | null;
  price: number | null;
  statusDescription: string | null;
}

/**
 * The answer body of a placed signal (201): the broker's order id when it differs from ours. The
 * answer given at the deadline (`pending`: 'accepted', confirmation pending) says nothing of the
 * broker's: the order is still being placed.
 */
export function overlayFromAnswer(signalId: string, body: Record<string, unknown>, title: string): AnswerOverlay {
  const id = text(body.id);
  return {
    status: isPendingBody(body, signalId, title) ? 'placing' : (text(body.status) ?? 'placing'),
    brokerOrderId: id && id !== signalId ? id : null,
    price: num(body.price),
    statusDescription: text(body.status_description),
  };
}

export function toApiOrder(row: OrderRow, overlay?: AnswerOverlay): ApiOrder {
  const order = (row.order ?? {}) as Partial<Order>;
  const response = (row.response ?? {}) as Record<string, unknown>;
  const settled = !overlay || row.status !== 'placing';
  return {
    id: row.id,
    accountId: accountId(row.connectorKey ?? '', row.accountId),
    brokerOrderId: (settled ? row.brokerOrderId : null) ?? overlay?.brokerOrderId ?? null,
    status: apiStatus(settled ? row.status : (overlay?.status ?? row.status)),
    statusDescription:
      (settled ? (text(response.status_description) ?? text(response.message)) : overlay?.statusDescription) ?? null,
    symbol: order.symbol ?? '',
    class: order.class ?? 'stock',
    action: order.action ?? '',
    quantity: num(order.quantity),
    quantityType: order.quantity_type ?? 'fixed',
    type: order.type ?? 'market',
    limitPrice: num(order.limit_price),
    stopPrice: num(order.stop_price),
    duration: order.duration ?? 'day',
    group: order.group ?? null,
    legs: (order.legs ?? []).map((leg) => ({
      symbol: leg.symbol,
      class: leg.class,
      action: leg.action,
      quantity: leg.quantity,
      type: leg.type ?? null,
      limitPrice: num(leg.limit_price),
    })),
    price: (settled ? row.price : null) ?? overlay?.price ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}
