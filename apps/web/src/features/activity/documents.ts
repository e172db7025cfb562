import { graphql } from '../../gql/index.ts';

/**
 * SPEC §7: the first load sends no parameters, search sends `search`, paging sends
 * `createdAtFrom` = the createdAt of the last shown action. `signalId` (a notification's link,
 * `/me?signal=<id>`) asks for one signal's entries only.
 */
export const ActivityActionsDocument = graphql(`
  query ActivityActions($search: String, $createdAtFrom: Float, $signalId: String) {
    actions(search: $search, createdAtFrom: $createdAtFrom, signalId: $signalId) {
      id
      code
      address
      metadata
      createdAt
    }
  }
`);
