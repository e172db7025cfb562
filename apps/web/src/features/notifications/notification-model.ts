// Notification settings of one connector account (SPEC §3 Notification, §4 Notifications) and
// their delivery log (issue #17).
import {
  NOTIFICATION_EVENTS,
  NOTIFICATION_TYPE,
  type NotificationEventType,
  type NotificationMetadata,
  type NotificationType,
} from '@router/shared';
import type { NotificationDeliveriesQuery, NotificationsQuery } from '../../gql/graphql.ts';
import { errorMessage } from '../../lib/error-message.ts';

export type NotificationItem = NotificationsQuery['notifications'][number];
export type DeliveryItem = NotificationDeliveriesQuery['notificationDeliveries'][number];

export interface ParsedMetadata {
  email?: string;
  url?: string;
  events?: NotificationEventType[];
}

const isEvent = (value: unknown): value is NotificationEventType =>
  (NOTIFICATION_EVENTS as readonly unknown[]).includes(value);

/** `{"email":"jo@example.com","events":[…]}` or `{"url":"https://…"}`; anything else is empty. */
export function parseMetadata(json: string): ParsedMetadata {
  try {
    const parsed: unknown = JSON.parse(json);
    if (typeof parsed !== 'object' || parsed === null) return {};
    const { email, url, events } = parsed as Record<string, unknown>;
    return {
      ...(typeof email === 'string' ? { email } : {}),
      ...(typeof url === 'string' ? { url } : {}),
      ...(Array.isArray(events) ? { events: events.filter(isEvent) } : {}),
    };
  } catch {
    return {};
  }
}

/** The events a setting hears: its list, or all of them when it has none. */
export const eventsOf = (metadata: ParsedMetadata): NotificationEventType[] =>
  metadata.events ?? [...NOTIFICATION_EVENTS];

/** What to store for the chosen events: nothing when all are chosen (the server's default). */
export function storedEvents(chosen: readonly string[]): NotificationEventType[] | undefined {
  const events = NOTIFICATION_EVENTS.filter((event) => chosen.includes(event));
  return events.length === NOTIFICATION_EVENTS.length ? undefined : events;
}

const canonical = (m: ParsedMetadata) => JSON.stringify([m.email ?? null, m.url ?? null, eventsOf(m)]);

export interface NotificationChoice {
  type: NotificationType;
  enabled: boolean;
  metadata: NotificationMetadata;
}

export interface NotificationCalls {
  create(type: NotificationType, metadata: string): Promise<unknown>;
  update(key: string, metadata: string): Promise<unknown>;
  remove(key: string): Promise<unknown>;
}

/**
 * Each type toggled on is created or updated, each toggled off deleted; unchanged ones are left
 * alone (a disabled one is saved again, which enables it). Stops at the first failure and
 * answers its message (or 'Error'); null when all saved.
 */
export async function saveNotifications(
  existing: readonly Pick<NotificationItem, 'key' | 'type' | 'metadata' | 'isEnabled'>[],
  choices: readonly NotificationChoice[],
  calls: NotificationCalls,
): Promise<string | null> {
  for (const choice of choices) {
    const current = existing.find((notification) => notification.type === choice.type);
    const metadata = JSON.stringify(choice.metadata);
    const changed = current && canonical(parseMetadata(current.metadata)) !== canonical(choice.metadata);
    try {
      if (choice.enabled && !current) await calls.create(choice.type, metadata);
      else if (choice.enabled && current && (changed || !current.isEnabled)) await calls.update(current.key, metadata);
      else if (!choice.enabled && current) await calls.remove(current.key);
    } catch (failure) {
      return errorMessage(failure);
    }
  }
  return null;
}

export const findByType = (notifications: readonly NotificationItem[], type: NotificationType) =>
  notifications.find((notification) => notification.type === type);

export const CHANNEL_NAMES: Readonly<Record<number, string>> = {
  [NOTIFICATION_TYPE.EMAIL]: 'Email',
  [NOTIFICATION_TYPE.HOOK]: 'Webhook',
};

/** The log is asked again this often while one of its deliveries is due (or late by less than a slow interval). */
export const DELIVERY_REFRESH_MS = 2_000;
/** …and at most this long apart while one waits for a later retry (5 s … 10 h apart) or the worker is late. */
export const DELIVERY_REFRESH_SLOW_MS = 60_000;

/**
 * When to ask the delivery log again, or null when none of its deliveries waits: fast while the
 * earliest waiting one is due (or just overdue, being sent), else at its due time, at most a
 * minute away (a retry hours off, or a worker down, is not polled every two seconds for hours).
 */
export function deliveryRefreshMs(
  deliveries: readonly Pick<DeliveryItem, 'status' | 'nextAttemptAt'>[],
  now: number,
): number | null {
  let due = Number.POSITIVE_INFINITY;
  for (const d of deliveries) if (d.status === 'pending') due = Math.min(due, d.nextAttemptAt ?? now);
  if (due === Number.POSITIVE_INFINITY) return null;
  const until = due - now;
  if (until <= -DELIVERY_REFRESH_SLOW_MS) return DELIVERY_REFRESH_SLOW_MS;
  return Math.min(Math.max(until, DELIVERY_REFRESH_MS), DELIVERY_REFRESH_SLOW_MS);
}

/** A delivery's state in words: delivered, failed, or waiting for its first try or a retry. */
export function deliveryState(delivery: Pick<DeliveryItem, 'status' | 'attempts' | 'inDigest'>): {
  label: string;
  tone: 'success' | 'danger' | 'warning' | 'secondary';
} {
  if (delivery.status === 'delivered') {
    return { label: delivery.inDigest ? 'Delivered (digest)' : 'Delivered', tone: 'success' };
  }
  if (delivery.status === 'failed') return { label: 'Failed', tone: 'danger' };
  return delivery.attempts > 0 ? { label: 'Retrying', tone: 'warning' } : { label: 'Waiting', tone: 'secondary' };
}

export { NOTIFICATION_TYPE };
