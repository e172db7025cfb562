// The events other modules emit, and the one way to emit them: inside the emitter's own
// transaction, so an event exists exactly when the change it reports was committed. Delivery
// (email, signed webhook, retries) happens later in the notification worker.
//
// Entry points (issue #17):
//   order.placed, order.filled, order.rejected — the statements writing a signal's outcome
//     (signals.repository.ts recordSignalOutcomes, reconciliation included) and paper fills
//     (paper.repository.ts), through db/repositories/signal-events.sql.ts;
//   signal.refused — modules/signals/refusal-event.ts, written with the refusal's activity entry
//     (a signal over the hook's rate limit or a body too large to read: hook/receive.ts, no entry,
//     once a minute per hook and reason);
//   credits.low, credits.exhausted — where the balance goes down: the hook's store statement
//     (signals.repository.ts) and modules/accounts/credits.ts, by the rule of credit-events.ts;
//   connector.expiring — the notification worker (notification-maintenance.repository.ts
//     emitExpiringConnectors); connector.deactivated —
//     modules/connectors/deactivate.ts.
import type { NotificationEventType } from '@router/shared';
import type { Executor } from '../../db/repositories/executor.ts';
import { insertEvents, insertEventsOn } from '../../db/repositories/notification-outbox.repository.ts';
import type { Queryable } from '../../db/repositories/signals.repository.ts';
import { storableJson } from '../signals/activity-writer.ts';

export { notificationEventCtes } from '../../db/repositories/notification-outbox.repository.ts';

/**
 * The hook a signal came through: its key and name identify it. Never its shortKey: that is the
 * webhook URL's secret, which places orders, and events leave the product (receivers' logs,
 * forwarded mails).
 */
export interface EventHook {
  key: string;
  name: string;
  /** The REST API's own hook (hooks.is_api): the order came from the API, not a webhook. */
  api?: true;
  /** Who placed a REST API order: the application's name, or `API token "name"` (orders since 0035). */
  via?: string;
}

/** order.placed, order.filled, order.rejected: one signal's order and what the broker said. */
export interface OrderEventData {
  /** Our signal id, the broker's client order id; the activity link finds the entry by it. */
  signalId: string;
  hook: EventHook | null;
  connectorKey: string;
  providerName: string;
  accountId: string;
  /** The normalized order (symbol, action, quantity, type, prices, …). */
  order: Record<string, unknown>;
  /** accepted, filled, rejected, failed, … */
  status: string;
  brokerOrderId: string | null;
  /** Average fill price. */
  price: number | null;
  /** The broker's message (rejected or failed), prefixed with its title. */
  message?: string;
}

/** signal.refused: a signal that became no order, and why. */
export interface SignalRefusedData {
  signalId?: string;
  hook: EventHook | null;
  connectorKey?: string;
  providerName?: string;
  accountId?: string;
  /** 'refused': every other refusal (a risk rule, a broker no longer available). */
  reason: 'invalid' | 'no_credits' | 'hook_inactive' | 'connector_inactive' | 'refused';
  /** The answer the sender got (SPEC §8 message). */
  message: string;
  /** The webhook rule that refused it (reason 'refused'), as the answer names it. */
  rule?: string;
}

/** connector.expiring, connector.deactivated. */
export interface ConnectorEventData {
  connectorKey: string;
  providerName: string;
  accountIds: string[];
  /** ms since the epoch (expiring). */
  expiresAt?: number;
  /** Why it was deactivated (the broker's message). */
  reason?: string;
}

/** credits.low, credits.exhausted. */
export interface CreditsEventData {
  balance: number;
  /** The level that counts as low (credits.low). */
  threshold?: number;
}

export interface EventDataByType {
  'order.placed': OrderEventData;
  'order.filled': OrderEventData;
  'order.rejected': OrderEventData;
  'signal.refused': SignalRefusedData;
  'connector.expiring': ConnectorEventData;
  'connector.deactivated': ConnectorEventData;
  'credits.low': CreditsEventData;
  'credits.exhausted': CreditsEventData;
}

/**
 * One event. `connectorId`/`accountId` narrow who hears it: settings of that account (both
 * given), of any account of the connector (connectorId only), or all the user's (neither).
 */
export type NotificationEvent = {
  [T in NotificationEventType]: {
    userId: number;
    connectorId?: number | null;
    accountId?: string | null;
    type: T;
    data: EventDataByType[T];
    /** When it happened (its webhook's `timestamp`); default: when it is written. */
    at?: Date;
    /**
     * A signal.refused told at most once a minute per hook, reason and message (a refusal with no
     * entry of its own): left out when an instance (this one or another) wrote the same one within the minute.
     */
    quiet?: boolean;
  };
}[NotificationEventType];

/** The events as the JSON the emitting statements read (json_to_recordset). */
export function eventsJson(events: readonly NotificationEvent[]): string {
  return storableJson(
    events.map((e) => ({
      user_id: e.userId,
      connector_id: e.connectorId ?? null,
      account_id: e.accountId ?? null,
      type: e.type,
      data: e.data,
      created_at: e.at?.toISOString() ?? null,
      ...(e.quiet ? { quiet: true } : {}),
    })),
  );
}

/**
 * Emits events in the caller's transaction (a Drizzle transaction or the database): each
 * becomes a delivery per matching enabled setting, or nothing when none matches. Returns the
 * deliveries queued.
 */
export function emitEvents(tx: Executor, events: readonly NotificationEvent[]): Promise<number> {
  return events.length === 0 ? Promise.resolve(0) : insertEvents(tx, eventsJson(events));
}

/** emitEvents on a pg pool or pool client (one named statement). */
export function emitEventsOn(client: Queryable, events: readonly NotificationEvent[]): Promise<number> {
  return events.length === 0 ? Promise.resolve(0) : insertEventsOn(client, eventsJson(events));
}
