import { graphql } from '../../gql/index.ts';

/**
 * SPEC §7: the first load sends no parameters, search sends `search`, paging sends
 * `createdAtFrom` = the createdAt of the last shown action.
 */
export const ActivityActionsDocument = graphql(`
  query ActivityActions($search: String, $createdAtFrom: Float) {
    actions(search: $search, createdAtFrom: $createdAtFrom) {
      id
      code
      address
      metadata
      createdAt
    }
  }
`);
