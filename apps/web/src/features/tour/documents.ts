import { graphql } from '../../gql/index.ts';

/** SPEC §2: a prior connector activation starts the tour at the connector step. */
export const TourConnectorActivationsDocument = graphql(`
  query TourConnectorActivations {
    actions(code: "ConnectorActivate", limit: 1) {
      id
    }
  }
`);
