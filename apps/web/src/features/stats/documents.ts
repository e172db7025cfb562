import { graphql } from '../../gql/index.ts';

/**
 * Hook calls per bucket of the trader's own time zone (the days of the activity's Date filter);
 * without createdAtFrom the last `width` buckets, zeros included.
 */
export const OrderStatsDocument = graphql(`
  query DashboardOrderStats($interval: String!, $width: Int, $timeZone: String) {
    actionsOrderStats(interval: $interval, width: $width, timeZone: $timeZone) {
      createdAt
      counter
      counterError
      counterRefused
      counterTest
    }
  }
`);
