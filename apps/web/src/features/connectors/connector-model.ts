// A connector as the screen uses it: accounts parsed from their JSON string (SPEC §3), and its
// state (active, deactivated, expired, about to expire soon).
import { expiryWarningDays } from '@router/shared';
import type { ConnectorsQuery } from '../../gql/graphql.ts';
import { DAY_MS } from './constants.ts';

export type ConnectorItem = ConnectorsQuery['connectors'][number];

export interface ConnectorAccount {
  id: string;
  name: string;
  dataTitle: string | null;
  dataType: string | null;
  dataCurrency: string | null;
  demo: boolean;
}

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/** `[{"id":"PA-1","name":"Paper account","dataType":"cash","dataCurrency":"USD","demo":true}]` */
export function parseAccounts(json: string | null | undefined): ConnectorAccount[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json ?? '[]');
  } catch {
    return [];
  }
  if (!Array.isArray(parsed)) return [];
  return parsed.flatMap((item: unknown) => {
    if (typeof item !== 'object' || item === null) return [];
    const record = item as Record<string, unknown>;
    const id = record.id === undefined || record.id === null ? null : String(record.id);
    if (!id) return [];
    return [
      {
        id,
        name: text(record.name) ?? id,
        dataTitle: text(record.dataTitle),
        dataType: text(record.dataType),
        dataCurrency: text(record.dataCurrency),
        demo: record.demo === true,
      },
    ];
  });
}

export type ConnectorState = 'active' | 'deactivated' | 'expired' | 'expiring';

/** SPEC §2: expired once expiresAt passed; about to expire when active and within the warning days. */
export function connectorState(
  connector: Pick<ConnectorItem, 'providerName' | 'isActive' | 'expiresAt'>,
  now: number = Date.now(),
): ConnectorState {
  const { expiresAt } = connector;
  if (expiresAt !== null && expiresAt !== undefined && expiresAt <= now) return 'expired';
  if (!connector.isActive) return 'deactivated';
  if (
    expiresAt !== null &&
    expiresAt !== undefined &&
    expiresAt - now <= expiryWarningDays(connector.providerName) * DAY_MS
  ) {
    return 'expiring';
  }
  return 'active';
}

export const STATE_LABELS: Record<ConnectorState, string> = {
  active: 'active',
  deactivated: 'deactivated',
  expired: 'expired',
  expiring: 'about to expire soon',
};

export const DEACTIVATED_MESSAGE =
  'The connection is deactivated due to connection or authorization issues. Try manually to Reconnect';

/** 'Paper account · cash · USD' */
export const accountDetails = (account: ConnectorAccount): string =>
  [account.dataTitle === account.id ? null : account.dataTitle, account.dataType, account.dataCurrency]
    .filter(Boolean)
    .join(' · ');
