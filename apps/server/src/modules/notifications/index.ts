// Notifications: settings (SPEC §3 Notification), the events other modules emit, and delivery
// by email and signed webhook (issue #17).
export {
  listNotificationDeliveries,
  resendNotificationDelivery,
  rotateNotificationSecret,
  sendTestNotification,
} from './deliveries.ts';
export {
  type ConnectorEventData,
  type CreditsEventData,
  emitEvents,
  emitEventsOn,
  type NotificationEvent,
  notificationEventCtes,
  type OrderEventData,
  type SignalRefusedData,
} from './events.ts';
export {
  createNotification,
  deleteNotification,
  getNotification,
  listNotifications,
  NOTIFICATION_NOT_FOUND,
  type NotificationAnswer,
  type NotificationInput,
  requireOwnEmail,
  updateNotification,
} from './manage.ts';
