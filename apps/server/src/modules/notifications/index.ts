export {
  createNotification,
  deleteNotification,
  getNotification,
  listNotifications,
  NOTIFICATION_NOT_FOUND,
  type NotificationInput,
  updateNotification,
} from './manage.ts';
