// SPEC §7 notification calls, and the panel's secret rotation, test notification, delivery log
// and re-send (issue #17).
import { NOTIFICATION_TYPE } from '@router/shared';
import type { DeliveryLogRow } from '../db/repositories/notification-deliveries.repository.ts';
import { redactUrl } from '../modules/admin/audit.ts';
import {
  createNotification,
  deleteNotification,
  getNotification,
  listNotificationDeliveries,
  listNotifications,
  type NotificationAnswer,
  requireOwnEmail,
  resendNotificationDelivery,
  rotateNotificationSecret,
  sendTestNotification,
  updateNotification,
} from '../modules/notifications/index.ts';
import { builder } from './builder.ts';
import { actorOf, dashboardActorOf } from './connector.ts';
import type { GraphQLContext } from './context.ts';
import { actsAsUser, requireOwner } from './guards.ts';

/**
 * A webhook's signing secret is a credential of its owner: answered only to their own dashboard
 * session, never to an administrator acting as them (it would outlive the proxy, unaudited) nor
 * to a personal API token. So creating a webhook setting (which answers a new secret) and
 * rotating its secret are refused there.
 */
const SECRET_OWNER_ONLY = 'A webhook signing secret is shown to its owner only: they can create or rotate it';
/**
 * For the same reason a webhook setting's URL: a new one would send the signed notifications
 * (the user's orders, refusals and connection notices) to another receiver, after the proxy ended.
 */
const URL_OWNER_ONLY = "A webhook's URL is set by its owner only: they can change it";

/** An email setting's address, in admin proxy mode: the account's own only (requireOwnEmail). */
const ownEmailInProxy = (ctx: GraphQLContext) =>
  actsAsUser(ctx) ? (email: string | undefined) => requireOwnEmail(ctx.services, actorOf(ctx), email) : undefined;

const NotificationRef = builder.objectRef<NotificationAnswer>('Notification').implement({
  description: 'SPEC §3 Notification: one notification setting of a connector account.',
  fields: (t) => ({
    key: t.exposeString('key'),
    type: t.exposeInt('type', { description: 'HOOK 1, EMAIL 2, PUSH 4, SMS 8' }),
    isEnabled: t.exposeBoolean('isEnabled'),
    metadata: t.string({
      description:
        'JSON: {email} or {url}, and `events` (a list of event names; absent: all events). In admin proxy mode the url is its origin and /[redacted] (its path and query may be the receiver’s secret); sent back so to notificationUpdate, it keeps the URL.',
      resolve: (n, _args, ctx) =>
        JSON.stringify(
          actsAsUser(ctx) && n.metadata.url ? { ...n.metadata, url: redactUrl(n.metadata.url) } : n.metadata,
        ),
    }),
    connectorKey: t.exposeString('connectorKey'),
    accountId: t.exposeString('accountId'),
    secret: t.string({
      nullable: true,
      description:
        "The webhook's Standard Webhooks signing secret (whsec_…): only in the answer of the notificationCreate that made it and of notificationSecretRotate, null otherwise",
      resolve: (n) => n.secret ?? null,
    }),
    disabledReason: t.string({
      nullable: true,
      description: 'Why the setting was disabled (its webhook failed for 3 days); saving it enables it again',
      resolve: (n) => n.disabledReason,
    }),
  }),
});

const time = (date: Date | null) => date?.getTime() ?? null;

const DeliveryRef = builder.objectRef<DeliveryLogRow>('NotificationDelivery').implement({
  description: 'One event sent (or to be sent) through one notification setting: the delivery log.',
  fields: (t) => ({
    id: t.string({ resolve: (d) => String(d.id) }),
    notificationKey: t.exposeString('notificationKey'),
    type: t.exposeInt('channel', { description: 'the setting type: HOOK 1, EMAIL 2' }),
    eventId: t.exposeString('eventId', { description: 'the webhook-id, the same on every attempt' }),
    event: t.exposeString('eventType', { description: 'order.placed, …, notification.test' }),
    status: t.exposeString('status', { description: 'pending (first try or a retry), delivered, failed' }),
    attempts: t.exposeInt('attempts'),
    responseCode: t.int({ nullable: true, description: "the receiver's HTTP status", resolve: (d) => d.responseCode }),
    error: t.string({ nullable: true, resolve: (d) => d.error }),
    inDigest: t.exposeBoolean('inDigest', { description: 'sent within a digest mail' }),
    createdAt: t.float({ description: 'ms since the epoch', resolve: (d) => d.createdAt.getTime() }),
    lastAttemptAt: t.float({ nullable: true, resolve: (d) => time(d.lastAttemptAt) }),
    nextAttemptAt: t.float({ nullable: true, resolve: (d) => (d.status === 'pending' ? time(d.nextAttemptAt) : null) }),
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
  notificationDeliveries: t.field({
    type: [DeliveryRef],
    description: "The newest 50 deliveries of a connector account's notification settings.",
    args: { connectorKey: t.arg.string({ required: true }), accountId: t.arg.string({ required: true }) },
    resolve: (_root, { connectorKey, accountId }, ctx) =>
      listNotificationDeliveries(ctx.services, actorOf(ctx), connectorKey, accountId),
  }),
}));

builder.mutationFields((t) => ({
  notificationCreate: t.field({
    type: NotificationRef,
    description:
      'Creates (or, for an existing type on the account, updates) a notification. type EMAIL 2 with metadata {email}, HOOK 1 with {url} (https); optional `events`; PUSH and SMS are refused; live and paper accounts only. A new webhook setting answers its secret once; a webhook setting is FORBIDDEN to an administrator acting as the user. FORBIDDEN to a personal API token (account setup: an email setting would mail any address).',
    args: {
      connectorKey: t.arg.string({ required: true }),
      accountId: t.arg.string({ required: true }),
      type: t.arg.int({ required: true }),
      metadata: t.arg.string({ required: true, description: 'JSON: {email} or {url}, and optional events' }),
    },
    resolve: (_root, args, ctx) => {
      if (args.type === NOTIFICATION_TYPE.HOOK) requireOwner(ctx, SECRET_OWNER_ONLY);
      return createNotification(ctx.services, dashboardActorOf(ctx), args, ownEmailInProxy(ctx));
    },
  }),
  notificationUpdate: t.field({
    type: NotificationRef,
    description:
      "New metadata for a setting; it is enabled again. A webhook setting's new URL is FORBIDDEN to an administrator acting as the user. FORBIDDEN to a personal API token (account setup: it could turn events off or mail another address).",
    args: { key: t.arg.string({ required: true }), metadata: t.arg.string({ required: true }) },
    resolve: (_root, { key, metadata }, ctx) =>
      updateNotification(
        ctx.services,
        dashboardActorOf(ctx),
        key,
        metadata,
        () => requireOwner(ctx, URL_OWNER_ONLY),
        actsAsUser(ctx) ? redactUrl : undefined,
        ownEmailInProxy(ctx),
      ),
  }),
  notificationDelete: t.boolean({
    args: { key: t.arg.string({ required: true }) },
    resolve: (_root, { key }, ctx) => deleteNotification(ctx.services, dashboardActorOf(ctx), key),
  }),
  notificationSecretRotate: t.field({
    type: NotificationRef,
    description:
      "A new signing secret for a webhook setting, answered once; the previous one keeps signing beside it for 24 hours. The owner's own dashboard session only: FORBIDDEN while an administrator acts as the user, and to a personal API token.",
    args: { key: t.arg.string({ required: true }) },
    resolve: (_root, { key }, ctx) => {
      requireOwner(ctx, SECRET_OWNER_ONLY);
      return rotateNotificationSecret(ctx.services, actorOf(ctx), key);
    },
  }),
  notificationTest: t.field({
    type: DeliveryRef,
    description:
      'Sends a test notification (event notification.test) through one setting; answers its delivery. FORBIDDEN to a personal API token (it sends mail on demand).',
    args: { key: t.arg.string({ required: true }) },
    resolve: (_root, { key }, ctx) => sendTestNotification(ctx.services, dashboardActorOf(ctx), key),
  }),
  notificationDeliveryResend: t.field({
    type: DeliveryRef,
    description:
      'Sends one delivery again (same event, same webhook-id). FORBIDDEN to a personal API token (it sends mail on demand).',
    args: { id: t.arg.string({ required: true }) },
    resolve: (_root, { id }, ctx) => resendNotificationDelivery(ctx.services, dashboardActorOf(ctx), Number(id)),
  }),
}));
