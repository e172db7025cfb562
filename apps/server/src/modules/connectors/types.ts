// What the connectors module gives out: never secrets, never the OAuth state.
import type { ConnectorRow } from '../../db/repositories/connectors.repository.ts';
import type { StoredBrokerAccount } from '../../db/schema/index.ts';

/** Who acts, for scoping and the activity log. */
export interface Actor {
  userId: number;
  /** The client address, recorded with actions. */
  address: string | null;
}

/** SPEC §3 Connector (accounts as a list; the GraphQL layer sends it as a JSON string). */
export interface ConnectorView {
  key: string;
  providerName: string;
  accounts: StoredBrokerAccount[];
  branch: string | null;
  status: number;
  isActive: boolean;
  isDemo: boolean;
  /** ms since epoch. */
  expiresAt: number | null;
}

export function toConnectorView(row: ConnectorRow): ConnectorView {
  return {
    key: row.key,
    providerName: row.providerName,
    accounts: row.accounts.map(({ id, name, dataTitle, dataType, dataCurrency, demo }) => ({
      id,
      name,
      ...(dataTitle !== undefined ? { dataTitle } : {}),
      ...(dataType !== undefined ? { dataType } : {}),
      ...(dataCurrency !== undefined ? { dataCurrency } : {}),
      demo,
    })),
    branch: row.branch,
    status: row.status,
    isActive: row.isActive,
    isDemo: row.isDemo,
    expiresAt: row.expiresAt ? row.expiresAt.getTime() : null,
  };
}

/** Metadata of connector actions (SPEC §3 Action: providerName, accountIds, key). */
export function connectorActionMetadata(row: ConnectorRow, extra: Record<string, unknown> = {}) {
  return { providerName: row.providerName, accountIds: row.accounts.map((a) => a.id), key: row.key, ...extra };
}

/** Shown by the hook endpoint and the playground when a connector is deactivated (SPEC §2). */
export const CONNECTOR_DEACTIVATED_MESSAGE =
  'The connection is deactivated due to connection or authorization issues. Try manually to Reconnect';
