import { graphql } from '../../gql/index.ts';

/**
 * SPEC §7: the first load sends no parameters, search sends `search`, paging sends
 * `createdAtFrom` = the createdAt of the last shown action. The trade filters (issue #21) add
 * result, hookKey, providerName, symbol and since when chosen. A live refresh asks `limit` rows: as many as are shown (at most ACTIVITY_PAGE_MAX). `signalId` (a notification's link,
 * `/me?signal=<id>`) asks for one signal's entries only.
 */
export const ActivityActionsDocument = graphql(`
  query ActivityActions(
    $search: String
    $createdAtFrom: Float
    $since: Float
    $result: String
    $hookKey: String
    $providerName: String
    $symbol: String
    $signalId: String
    $limit: Int
  ) {
    actions(
      search: $search
      createdAtFrom: $createdAtFrom
      since: $since
      result: $result
      hookKey: $hookKey
      providerName: $providerName
      symbol: $symbol
      signalId: $signalId
      limit: $limit
    ) {
      id
      code
      address
      metadata
      createdAt
      trade {
        hookKey
        hookName
        via
        providerName
        symbol
        side
        quantity
        orderType
        price
        result
        repeat
        checking
        status
        elapsedMs
        phases {
          parse
          store
          broker
        }
        brokerOrderId
        order
        isTest
      }
    }
  }
`);

/** The trader's connectors: the Broker filter offers each, the Webhook filter each one's webhooks. */
export const ActivityConnectorsDocument = graphql(`
  query ActivityConnectors {
    connectors {
      key
      providerName
    }
  }
`);

/** One connector's webhooks, by name, for the Webhook filter. */
export const ActivityHooksDocument = graphql(`
  query ActivityHooks($connectorKey: String!) {
    hooks(connectorKey: $connectorKey) {
      key
      name
    }
  }
`);
