import { screen } from '@testing-library/react';
import { useQuery } from 'urql';
import { describe, expect, it } from 'vitest';
import { fixture, graphQLError } from '../../test/fake-server.ts';
import { renderWithClient } from '../../test/render-with-client.tsx';
import { DashboardTiles } from './dashboard-tiles.tsx';
import { DashboardConnectorsDocument } from './documents.ts';
import { connectorCounts, lastDayCounts, signalsLeft } from './tile-values.ts';

function Tiles() {
  const [connectors] = useQuery({ query: DashboardConnectorsDocument });
  return <DashboardTiles connectors={connectors} />;
}

const value = async (testId: string) => (await screen.findByTestId(`${testId}-value`)).textContent;

describe('dashboard tiles (SPEC §2 Dashboard, §9)', () => {
  it('floors the balance at 0 and counts every connected broker, those to reconnect apart', () => {
    expect(signalsLeft(-3)).toBe(0);
    expect(signalsLeft(0)).toBe(0);
    expect(signalsLeft(42)).toBe(42);
    const now = Date.UTC(2025, 0, 31);
    const expired = { isActive: true, expiresAt: now - 1 };
    const expiring = { isActive: true, expiresAt: now + 1 };
    expect(connectorCounts([{ isActive: true }, { isActive: false }, expired, expiring], now)).toEqual({
      connected: 4,
      toReconnect: 2,
    });
    expect(lastDayCounts([])).toEqual({ live: 0, test: 0 });
    expect(lastDayCounts([{ counter: 3, counterTest: 1 }])).toEqual({ live: 3, test: 1 });
  });

  it('shows connected brokers, signals left floored at 0 and the last 24 h as live / test', async () => {
    const { calls } = renderWithClient(<Tiles />, {
      DashboardConnectors: fixture(() => ({
        data: {
          connectors: [
            { key: 'a', isActive: true },
            { key: 'b', isActive: false },
          ],
        },
      })),
      DashboardAccount: fixture(() => ({ data: { account: { balance: -7, unlimited: false } } })),
      DashboardOrderCounters: fixture(() => ({ data: { actionsOrderCounters: [{ counter: 1234, counterTest: 2 }] } })),
    });
    await screen.findByText('1,234 / 2');
    // A deactivated connection is still a connected broker, to be reconnected (SPEC §2 Brokers & Webhooks).
    expect(await value('tile-brokers')).toBe('2');
    expect(screen.getByText('1 to reconnect on Brokers & Webhooks')).toBeTruthy();
    expect(await value('tile-balance')).toBe('0');
    expect(screen.getByText('live / test')).toBeTruthy();
    expect(calls('DashboardOrderCounters')[0]?.variables).toEqual({});
    expect(screen.getByRole('link', { name: 'Connected brokers' }).getAttribute('href')).toBe('/me/connector');
  });

  it('shows which figure could not load', async () => {
    renderWithClient(<Tiles />, {
      DashboardConnectors: fixture(() => ({ data: { connectors: [] } })),
      DashboardAccount: fixture(() => graphQLError('Database unavailable', 'INTERNAL')),
      DashboardOrderCounters: fixture(() => ({ data: { actionsOrderCounters: [] } })),
    });
    expect(await screen.findByText('Could not load')).toBeTruthy();
    expect(await value('tile-last-day')).toBe('0 / 0');
    expect(await value('tile-brokers')).toBe('0');
    expect(screen.getByText('Connect a broker')).toBeTruthy();
  });
});
