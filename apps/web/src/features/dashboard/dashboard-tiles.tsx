import Col from 'react-bootstrap/Col';
import Row from 'react-bootstrap/Row';
import { type AnyVariables, type UseQueryState, useQuery } from 'urql';
import { formatCount } from '../../lib/format.ts';
import { UNLIMITED } from '../billing/texts.ts';
import { useLiveReload } from '../live/live-provider.tsx';
import { DashboardAccountDocument, DashboardOrderCountersDocument } from './documents.ts';
import { Tile, tileState } from './tile.tsx';
import { connectorCounts, connectorHint, lastDayCounts, signalsLeft } from './tile-values.ts';

type Result<T> = UseQueryState<T, AnyVariables>;

/** The three figures of SPEC §2 Dashboard; connectors come from the page (the tour needs them too). */
export function DashboardTiles({
  connectors,
}: {
  connectors: Result<{ connectors: Array<{ isActive: boolean; expiresAt?: number | null }> }>;
}) {
  const [account, refetchAccount] = useQuery({ query: DashboardAccountDocument, requestPolicy: 'network-only' });
  const [counters, refetchCounters] = useQuery({
    query: DashboardOrderCountersDocument,
    requestPolicy: 'network-only',
  });
  // Live: a signal spends a credit and counts in the last 24 hours.
  useLiveReload(() => {
    refetchAccount({ requestPolicy: 'network-only' });
    refetchCounters({ requestPolicy: 'network-only' });
  });
  const lastDay = (data: { actionsOrderCounters: Array<{ counter: number; counterTest: number }> }) => {
    const { live, test } = lastDayCounts(data.actionsOrderCounters);
    return `${formatCount(live)} / ${formatCount(test)}`;
  };
  return (
    <Row xs={1} md={3} className="g-3 mb-4">
      <Col>
        <Tile
          title="Connected brokers"
          testId="tile-brokers"
          to="/me/connector"
          hint={connectors.data ? connectorHint(connectorCounts(connectors.data.connectors)) : 'Brokers & Webhooks'}
          state={tileState(connectors, (data) => formatCount(connectorCounts(data.connectors).connected))}
        />
      </Col>
      <Col>
        <Tile
          title="Signals left"
          testId="tile-balance"
          to="/me/account"
          hint="Account & Billing"
          state={tileState(account, (data) =>
            data.account.unlimited ? UNLIMITED : formatCount(signalsLeft(data.account.balance)),
          )}
        />
      </Col>
      <Col>
        <Tile
          title="Signals in last 24h"
          testId="tile-last-day"
          hint="live / test"
          state={tileState(counters, lastDay)}
        />
      </Col>
    </Row>
  );
}
