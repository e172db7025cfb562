import { useQuery } from 'urql';
import { useDocumentTitle } from '../../components/use-document-title.ts';
import { ActivityPanel } from '../../features/activity/activity-panel.tsx';
import { DashboardTiles } from '../../features/dashboard/dashboard-tiles.tsx';
import { DashboardConnectorsDocument } from '../../features/dashboard/documents.ts';
import { LiveIndicator } from '../../features/live/live-indicator.tsx';
import { useLiveReload } from '../../features/live/live-provider.tsx';
import { HookCallsPanel } from '../../features/stats/hook-calls-panel.tsx';
import { DashboardTour } from '../../features/tour/dashboard-tour.tsx';
import { useSession } from '../../lib/session.tsx';
import { useLastLoaded } from '../../lib/use-last-loaded.ts';

/**
 * SPEC §2 Dashboard: three tiles, the hook-calls chart, the Last actions panel and, for a user
 * without connectors, the welcome tour. Connectors are fetched network-only: the count and the
 * tour's rule must see a broker connected a moment ago on another screen.
 */
export function Component() {
  useDocumentTitle('Dashboard');
  const { user } = useSession();
  const [connectors, refetchConnectors] = useQuery({
    query: DashboardConnectorsDocument,
    requestPolicy: 'network-only',
  });
  // Live: a connection deactivated (or made) meanwhile changes the Connected brokers tile.
  useLiveReload(() => refetchConnectors({ requestPolicy: 'network-only' }));
  // The count once settled; a live reload keeps the last one (the tour stays where it is).
  const connectorCount =
    useLastLoaded(connectors.data && !connectors.fetching ? connectors.data.connectors.length : undefined) ?? null;
  return (
    <>
      <div className="d-flex flex-wrap align-items-center gap-2 mb-3">
        <h1 className="h3 m-0">Dashboard</h1>
        <LiveIndicator />
      </div>
      <DashboardTiles connectors={connectors} />
      <HookCallsPanel />
      <ActivityPanel />
      {user && <DashboardTour userKey={user.key} connectorCount={connectorCount} />}
    </>
  );
}
