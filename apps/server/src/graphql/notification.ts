// SPEC §7 notification calls (the settings; delivery is a later issue).
import type { NotificationView } from '../db/repositories/notifications.repository.ts';
import {
  createNotification,
  deleteNotification,
  getNotification,
  listNotifications,
  updateNotification,
} from '../modules/notifications/index.ts';
import { builder } from './builder.ts';
import { actorOf } from './connector.ts';

const NotificationRef = builder.objectRef<NotificationView>('Notification').implement({
  description: 'SPEC §3 Notification: one notification setting of a connector account.',
  fields: (t) => ({
    key: t.exposeString('key'),
    type: t.exposeInt('type', { description: 'HOOK 1, EMAIL 2, PUSH 4, SMS 8' }),
    isEnabled: t.exposeBoolean('isEnabled'),
    metadata: t.string({ description: 'JSON: {email} or {url}', resolve: (n) => JSON.stringify(n.metadata) }),
    connectorKey: t.exposeString('connectorKey'),
    accountId: t.exposeString('accountId'),
  }),
});

builder.queryFields((t) => ({
  notification: t.field({
    type: NotificationRef,
    description: "One of the caller's notifications; NOT_FOUND 'Notification not found' otherwise.",
    args: { key: t.arg.string({ required: true }) },
    resolve: (_root, { key }, ctx) => getNotification(ctx.services, actorOf(ctx), key),
  }),
  notifications: t.field({
    type: [NotificationRef],
    description: 'The notifications of a connector of the caller, of one account when accountId is given.',
    args: { connectorKey: t.arg.string({ required: true }), accountId: t.arg.string() },
    resolve: (_root, { connectorKey, accountId }, ctx) =>
      listNotifications(ctx.services, actorOf(ctx), connectorKey, accountId ?? null),
  }),
}));

builder.mutationFields((t) => ({
  notificationCreate: t.field({
    type: NotificationRef,
    description:
      'Creates (or, for an existing type on the account, updates) a notification. type EMAIL 2 with metadata {email}, HOOK 1 with {url}; PUSH and SMS are refused; live accounts only.',
    args: {
      connectorKey: t.arg.string({ required: true }),
      accountId: t.arg.string({ required: true }),
      type: t.arg.int({ required: true }),
      metadata: t.arg.string({ required: true, description: 'JSON: {email} or {url}' }),
    },
    resolve: (_root, args, ctx) => createNotification(ctx.services, actorOf(ctx), args),
  }),
  notificationUpdate: t.field({
    type: NotificationRef,
    args: { key: t.arg.string({ required: true }), metadata: t.arg.string({ required: true }) },
    resolve: (_root, { key, metadata }, ctx) => updateNotification(ctx.services, actorOf(ctx), key, metadata),
  }),
  notificationDelete: t.boolean({
    args: { key: t.arg.string({ required: true }) },
    resolve: (_root, { key }, ctx) => deleteNotification(ctx.services, actorOf(ctx), key),
  }),
}));
