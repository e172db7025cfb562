import { graphql } from '../../gql/index.ts';

/** The notification settings of one connector account (SPEC §3 Notification). */
export const NotificationsDocument = graphql(`
  query Notifications($connectorKey: String!, $accountId: String) {
    notifications(connectorKey: $connectorKey, accountId: $accountId) {
      key
      type
      isEnabled
      metadata
      connectorKey
      accountId
      disabledReason
    }
  }
`);

/**
 * Which accounts of a connector have settings: those of accounts a reconnect no longer brought
 * are listed apart (they stay, as the accounts' webhooks do, and can be seen and deleted there).
 */
export const ConnectorNotificationsDocument = graphql(`
  query ConnectorNotifications($connectorKey: String!) {
    notifications(connectorKey: $connectorKey) {
      key
      accountId
    }
  }
`);

/** A new webhook setting answers its signing secret, this once. */
export const NotificationCreateDocument = graphql(`
  mutation NotificationCreate($connectorKey: String!, $accountId: String!, $type: Int!, $metadata: String!) {
    notificationCreate(connectorKey: $connectorKey, accountId: $accountId, type: $type, metadata: $metadata) {
      key
      secret
    }
  }
`);

export const NotificationUpdateDocument = graphql(`
  mutation NotificationUpdate($key: String!, $metadata: String!) {
    notificationUpdate(key: $key, metadata: $metadata) {
      key
    }
  }
`);

export const NotificationDeleteDocument = graphql(`
  mutation NotificationDelete($key: String!) {
    notificationDelete(key: $key)
  }
`);

export const NotificationSecretRotateDocument = graphql(`
  mutation NotificationSecretRotate($key: String!) {
    notificationSecretRotate(key: $key) {
      key
      secret
    }
  }
`);

/** The last 50 deliveries of the account's settings (issue #17 point 6). */
export const NotificationDeliveriesDocument = graphql(`
  query NotificationDeliveries($connectorKey: String!, $accountId: String!) {
    notificationDeliveries(connectorKey: $connectorKey, accountId: $accountId) {
      id
      notificationKey
      type
      eventId
      event
      status
      attempts
      responseCode
      error
      inDigest
      createdAt
      lastAttemptAt
      nextAttemptAt
    }
  }
`);

/** Test and re-send answer the delivery; the panel then asks the log again. */
export const NotificationTestDocument = graphql(`
  mutation NotificationTest($key: String!) {
    notificationTest(key: $key) {
      id
      status
    }
  }
`);

export const NotificationDeliveryResendDocument = graphql(`
  mutation NotificationDeliveryResend($id: String!) {
    notificationDeliveryResend(id: $id) {
      id
      status
    }
  }
`);
