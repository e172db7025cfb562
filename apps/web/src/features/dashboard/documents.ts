import { graphql } from '../../gql/index.ts';

/** Connected brokers tile (and those to reconnect: deactivated or expired) and the tour's start rule. */
export const DashboardConnectorsDocument = graphql(`
  query DashboardConnectors {
    connectors {
      key
      isActive
      expiresAt
    }
  }
`);

/** Signals left tile; SPEC §7: the account query is network-only. */
export const DashboardAccountDocument = graphql(`
  query DashboardAccount {
    account {
      balance
      unlimited
    }
  }
`);

/** Signals in the last 24 h (no arguments: the server's default window), live / test. */
export const DashboardOrderCountersDocument = graphql(`
  query DashboardOrderCounters {
    actionsOrderCounters {
      counter
      counterTest
    }
  }
`);
