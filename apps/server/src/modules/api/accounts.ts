// The accounts a REST API caller may use: every account of the caller's broker connections, named
// by an opaque id (the connection's key and the broker's account id, base64url), and resolved
// back only within the caller's own connections: another user's id is simply not found.
import type { ApiAccount } from '@router/shared/api';
import { findConnector, listConnectors } from '../../db/repositories/connectors.repository.ts';
import type { StoredBrokerAccount } from '../../db/schema/index.ts';
import { AppError } from '../../errors.ts';
import type { Services } from '../../services.ts';

export const ACCOUNT_NOT_FOUND = 'Account not found';

type ConnectorRow = NonNullable<Awaited<ReturnType<typeof findConnector>>>;

export function accountId(connectorKey: string, brokerAccountId: string): string {
  return Buffer.from(`${connectorKey}\n${brokerAccountId}`).toString('base64url');
}

function parseAccountId(id: string): { connectorKey: string; brokerAccountId: string } | null {
  const text = Buffer.from(id, 'base64url').toString();
  const split = text.indexOf('\n');
  if (split <= 0 || accountId(text.slice(0, split), text.slice(split + 1)) !== id) return null;
  return { connectorKey: text.slice(0, split), brokerAccountId: text.slice(split + 1) };
}

function toApiAccount(connector: ConnectorRow, account: StoredBrokerAccount): ApiAccount {
  return {
    id: accountId(connector.key, account.id),
    providerName: connector.providerName,
    name: account.name,
    isTest: account.demo || connector.isDemo || connector.providerName === 'paper',
  };
}

export async function listApiAccounts(services: Services, userId: number): Promise<ApiAccount[]> {
  const connectors = await listConnectors(services.db, userId);
  return connectors.flatMap((connector) => connector.accounts.map((account) => toApiAccount(connector, account)));
}

export interface ResolvedAccount {
  connector: ConnectorRow;
  account: StoredBrokerAccount;
  id: string;
}

/** The caller's account behind an opaque id; NOT_FOUND for malformed, unknown and other users' ids. */
export async function requireApiAccount(services: Services, userId: number, id: string): Promise<ResolvedAccount> {
  const parsed = parseAccountId(id);
  const connector = parsed ? await findConnector(services.db, userId, parsed.connectorKey) : undefined;
  const account = connector?.accounts.find((a) => a.id === parsed?.brokerAccountId);
  if (!connector || !account) throw new AppError('NOT_FOUND', ACCOUNT_NOT_FOUND);
  return { connector, account, id };
}
