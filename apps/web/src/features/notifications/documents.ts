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
    }
  }
`);

export const NotificationCreateDocument = graphql(`
  mutation NotificationCreate($connectorKey: String!, $accountId: String!, $type: Int!, $metadata: String!) {
    notificationCreate(connectorKey: $connectorKey, accountId: $accountId, type: $type, metadata: $metadata) {
      key
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
