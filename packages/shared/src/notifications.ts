// Notification settings per connector account (SPEC §3 Notification, §5 validation) and the
// events they choose from (issue #17).
import { z } from 'zod';
import { emailSchema } from './auth.ts';

/** SPEC §3 notification type flags. */
export const NOTIFICATION_TYPE = { HOOK: 1, EMAIL: 2, PUSH: 4, SMS: 8 } as const;
export type NotificationType = (typeof NOTIFICATION_TYPE)[keyof typeof NOTIFICATION_TYPE];

export const NOTIFICATION_MESSAGES = {
  required: 'Required',
  invalidEmail: 'Invalid email',
  invalidUrl: 'Invalid URL',
  httpsOnly: 'Webhook URLs must use https',
  liveOnly: 'This setting is currently available for live trading accounts only.',
  notAvailable: 'Push and SMS notifications are not available yet',
  unknownType: 'Unknown notification type',
  eventsRequired: 'Choose at least one event',
  unknownEvent: 'Unknown event',
} as const;

/** The events a setting may choose (its `metadata.events`; omitted: all of them). */
export const NOTIFICATION_EVENTS = [
  'order.placed',
  'order.filled',
  'order.rejected',
  'signal.refused',
  'connector.expiring',
  'connector.deactivated',
  'credits.low',
  'credits.exhausted',
] as const;
export type NotificationEventType = (typeof NOTIFICATION_EVENTS)[number];

/** Sent by 'Send test' to one setting, whatever its events. */
export const NOTIFICATION_TEST_EVENT = 'notification.test';

export const NOTIFICATION_EVENT_LABELS: Readonly<
  Record<NotificationEventType | typeof NOTIFICATION_TEST_EVENT, string>
> = {
  'order.placed': 'Order placed',
  'order.filled': 'Order filled',
  'order.rejected': 'Order rejected or failed',
  'signal.refused': 'Signal refused',
  'connector.expiring': 'Connection expiring',
  'connector.deactivated': 'Connection deactivated',
  'credits.low': 'Credits low',
  'credits.exhausted': 'Credits exhausted',
  'notification.test': 'Test notification',
};

export const notificationEmailSchema = emailSchema;

/** Webhook URL: required, http(s) with a host (SPEC §5); the server also requires https. */
export const notificationUrlSchema = z
  .string({ error: NOTIFICATION_MESSAGES.required })
  .trim()
  .min(1, NOTIFICATION_MESSAGES.required)
  .max(2048, NOTIFICATION_MESSAGES.invalidUrl)
  .pipe(z.url({ protocol: /^https?$/, hostname: /^[^\s/]+$/, error: NOTIFICATION_MESSAGES.invalidUrl }));

/** A non-empty list of known events, each once, in the order of NOTIFICATION_EVENTS. */
export const notificationEventsSchema = z
  .array(z.enum(NOTIFICATION_EVENTS, { error: NOTIFICATION_MESSAGES.unknownEvent }), {
    error: NOTIFICATION_MESSAGES.unknownEvent,
  })
  .min(1, NOTIFICATION_MESSAGES.eventsRequired)
  .transform((events) => NOTIFICATION_EVENTS.filter((event) => events.includes(event)));

export const emailNotificationSchema = z.object({
  email: notificationEmailSchema,
  events: notificationEventsSchema.optional(),
});
export const hookNotificationSchema = z.object({
  url: notificationUrlSchema,
  events: notificationEventsSchema.optional(),
});

/** The metadata schema of a type; push and SMS have none (they cannot be selected). */
export function notificationMetadataSchema(type: number) {
  if (type === NOTIFICATION_TYPE.EMAIL) return emailNotificationSchema;
  if (type === NOTIFICATION_TYPE.HOOK) return hookNotificationSchema;
  return null;
}

export type NotificationMetadata = ({ email: string } | { url: string }) & { events?: NotificationEventType[] };

/** A delivery's state in the log: waiting (first try or a retry), delivered, or given up. */
export const NOTIFICATION_DELIVERY_STATUS = ['pending', 'delivered', 'failed'] as const;
export type NotificationDeliveryStatus = (typeof NOTIFICATION_DELIVERY_STATUS)[number];
/** The panel's delivery log shows this many, newest first. */
export const NOTIFICATION_DELIVERY_LOG_SIZE = 50;

/**
 * SPEC §2, §5: settings are for live accounts only. The built-in paper broker is the exception
 * (issue #17): SPEC's rule is about a broker's own demo accounts, and paper is where a trader
 * tries notifications before going live.
 */
export function notificationsAllowed(providerName: string, connectorIsDemo: boolean, accountIsDemo: boolean): boolean {
  return providerName === 'paper' || !(connectorIsDemo || accountIsDemo);
}
