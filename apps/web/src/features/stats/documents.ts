import { graphql } from '../../gql/index.ts';

/** Hook calls per bucket; without createdAtFrom the last `width` buckets, zeros included. */
export const OrderStatsDocument = graphql(`
  query DashboardOrderStats($interval: String!, $width: Int) {
    actionsOrderStats(interval: $interval, width: $width) {
      createdAt
      counter
      counterError
      counterRefused
      counterTest
    }
  }
`);
