// Notification settings per connector account (SPEC §3 Notification, §5 validation).
import { z } from 'zod';
import { emailSchema } from './auth.ts';

/** SPEC §3 notification type flags. */
export const NOTIFICATION_TYPE = { HOOK: 1, EMAIL: 2, PUSH: 4, SMS: 8 } as const;
export type NotificationType = (typeof NOTIFICATION_TYPE)[keyof typeof NOTIFICATION_TYPE];

export const NOTIFICATION_MESSAGES = {
  required: 'Required',
  invalidEmail: 'Invalid email',
  invalidUrl: 'Invalid URL',
  liveOnly: 'This setting is currently available for live trading accounts only.',
  notAvailable: 'Push and SMS notifications are not available yet',
  unknownType: 'Unknown notification type',
} as const;

export const notificationEmailSchema = emailSchema;

/** Webhook URL: required, http(s) with a host (SPEC §5). */
export const notificationUrlSchema = z
  .string({ error: NOTIFICATION_MESSAGES.required })
  .trim()
  .min(1, NOTIFICATION_MESSAGES.required)
  .max(2048, NOTIFICATION_MESSAGES.invalidUrl)
  .pipe(z.url({ protocol: /^https?$/, hostname: /^[^\s/]+$/, error: NOTIFICATION_MESSAGES.invalidUrl }));

export const emailNotificationSchema = z.object({ email: notificationEmailSchema });
export const hookNotificationSchema = z.object({ url: notificationUrlSchema });

/** The metadata schema of a type; push and SMS have none (they cannot be selected). */
export function notificationMetadataSchema(type: number) {
  if (type === NOTIFICATION_TYPE.EMAIL) return emailNotificationSchema;
  if (type === NOTIFICATION_TYPE.HOOK) return hookNotificationSchema;
  return null;
}

export type NotificationMetadata = { email: string } | { url: string };
