// The caller's connectors as the playground reads them: `accounts` arrives as a JSON string
// (SPEC §3 Connector) such as [{"id": "PA-1", "name": "Main", "dataType": "cash", "dataCurrency": "USD"}].
import type { PlaygroundConnectorsQuery } from '../../gql/graphql.ts';

export interface ConnectorAccount {
  id: string;
  name?: string;
  dataTitle?: string;
  dataType?: string;
  dataCurrency?: string;
  demo?: boolean;
}

export interface PlaygroundConnector {
  key: string;
  providerName: string;
  isActive: boolean;
  isDemo: boolean;
  accounts: ConnectorAccount[];
}

type ConnectorRow = PlaygroundConnectorsQuery['connectors'][number];

export function parseConnector(row: ConnectorRow): PlaygroundConnector {
  return {
    key: row.key,
    providerName: row.providerName,
    isActive: row.isActive,
    isDemo: row.isDemo,
    accounts: parseAccounts(row.accounts),
  };
}

function parseAccounts(json: string): ConnectorAccount[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch (error) {
    console.warn('Cannot parse connector accounts', error);
    return [];
  }
  if (!Array.isArray(parsed)) return [];
  return parsed.filter(
    (item): item is ConnectorAccount =>
      typeof item === 'object' && item !== null && typeof (item as { id?: unknown }).id === 'string',
  );
}

/** One option of the account select: a connector's account. */
export interface AccountChoice {
  /** `connectorKey accountId`, unique across the provider's connectors. */
  value: string;
  connectorKey: string;
  accountId: string;
  isActive: boolean;
  label: string;
}

/** SPEC §2: title or id, then name, data type, currency. */
export function accountLabel(account: ConnectorAccount): string {
  const parts = [account.dataTitle || account.id, account.name, account.dataType, account.dataCurrency];
  return parts.filter((part): part is string => typeof part === 'string' && part.trim() !== '').join(' · ');
}

/** Every account of the provider's connectors, oldest connector first. */
export function accountChoices(connectors: readonly PlaygroundConnector[], providerName: string): AccountChoice[] {
  return connectors
    .filter((connector) => connector.providerName === providerName)
    .flatMap((connector) =>
      connector.accounts.map((account) => ({
        value: `${connector.key} ${account.id}`,
        connectorKey: connector.key,
        accountId: account.id,
        isActive: connector.isActive,
        label: accountLabel(account),
      })),
    );
}
