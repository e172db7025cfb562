// Notification settings of one connector account (SPEC §3 Notification, §4 Notifications).
import { NOTIFICATION_TYPE, type NotificationMetadata, type NotificationType } from '@router/shared';
import type { NotificationsQuery } from '../../gql/graphql.ts';
import { errorMessage } from '../../lib/error-message.ts';

export type NotificationItem = NotificationsQuery['notifications'][number];

/** `{"email":"jo@example.com"}` or `{"url":"https://example.com/hook"}`; anything else is empty. */
export function parseMetadata(json: string): { email?: string; url?: string } {
  try {
    const parsed: unknown = JSON.parse(json);
    if (typeof parsed !== 'object' || parsed === null) return {};
    const { email, url } = parsed as Record<string, unknown>;
    return {
      ...(typeof email === 'string' ? { email } : {}),
      ...(typeof url === 'string' ? { url } : {}),
    };
  } catch {
    return {};
  }
}

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
 * alone. Stops at the first failure and answers its message (or 'Error'); null when all saved.
 */
export async function saveNotifications(
  existing: readonly Pick<NotificationItem, 'key' | 'type' | 'metadata' | 'isEnabled'>[],
  choices: readonly NotificationChoice[],
  calls: NotificationCalls,
): Promise<string | null> {
  for (const choice of choices) {
    const current = existing.find((notification) => notification.type === choice.type);
    const metadata = JSON.stringify(choice.metadata);
    try {
      if (choice.enabled && !current) await calls.create(choice.type, metadata);
      else if (choice.enabled && current && (current.metadata !== metadata || !current.isEnabled)) {
        await calls.update(current.key, metadata);
      } else if (!choice.enabled && current) await calls.remove(current.key);
    } catch (failure) {
      return errorMessage(failure);
    }
  }
  return null;
}

export const findByType = (notifications: readonly NotificationItem[], type: NotificationType) =>
  notifications.find((notification) => notification.type === type);

export { NOTIFICATION_TYPE };
