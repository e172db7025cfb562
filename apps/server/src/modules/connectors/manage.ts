// connector, connectors, connectorUpdate (account names) and connectorDelete, scoped to the caller.
import { accountNameSchema, accountRenamesSchema } from '@router/shared';
import { recordAction } from '../../db/repositories/action.repository.ts';
import {
  type ConnectorRow,
  deleteConnectorRow,
  findConnector,
  listConnectors as listConnectorRows,
  lockConnector,
  updateConnector,
} from '../../db/repositories/connectors.repository.ts';
import { listHookShortKeys, notifyHookChanged } from '../../db/repositories/hooks.repository.ts';
import { AppError } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { hooksChangedHere } from '../hooks/hook-cache.ts';
import { cancelQueuedOfDeletedHooks } from '../signals/queued.ts';
import { disconnectAtBroker } from './disconnect.ts';
import { forgetSession } from './session-cache.ts';
import { type Actor, type ConnectorView, connectorActionMetadata, toConnectorView } from './types.ts';

export const CONNECTOR_NOT_FOUND = 'Connector not found';

/** The caller's connector; NOT_FOUND for unknown keys and other users' connectors alike. */
export async function requireConnector(services: Services, userId: number, key: string): Promise<ConnectorRow> {
  const row = key ? await findConnector(services.db, userId, key) : undefined;
  if (!row) throw new AppError('NOT_FOUND', CONNECTOR_NOT_FOUND, { field: 'key' });
  return row;
}

export async function getConnector(services: Services, actor: Actor, key: string): Promise<ConnectorView> {
  return toConnectorView(await requireConnector(services, actor.userId, key));
}

export async function listConnectors(services: Services, actor: Actor): Promise<ConnectorView[]> {
  return (await listConnectorRows(services.db, actor.userId)).map(toConnectorView);
}

function parseRenames(text: string) {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new AppError('VALIDATION', 'accounts must be a JSON list of {id, name}', { field: 'accounts' });
  }
  const parsed = accountRenamesSchema.safeParse(json);
  if (!parsed.success) {
    throw new AppError('VALIDATION', 'accounts must be a JSON list of {id, name}', { field: 'accounts' });
  }
  return parsed.data;
}

/** The new names by account id: an empty (or null) name is skipped, every other must be a valid name. */
function newNames(accountsJson: string): Map<string, string> {
  const names = new Map<string, string>();
  parseRenames(accountsJson).forEach(({ id, name }, index) => {
    if (!name?.trim()) return;
    const parsed = accountNameSchema.safeParse(name);
    if (!parsed.success) {
      const message = parsed.error.issues[0]?.message ?? 'Invalid name';
      throw new AppError('VALIDATION', message, { field: `accounts.${index}.name` });
    }
    names.set(id, parsed.data);
  });
  return names;
}

/** Renames accounts; an entry with an empty name, or an id the connector lacks, is skipped. */
export async function renameConnectorAccounts(
  services: Services,
  actor: Actor,
  key: string,
  accountsJson: string,
): Promise<ConnectorView> {
  const row = await requireConnector(services, actor.userId, key);
  const names = newNames(accountsJson);
  // The list is read again under the row's lock: a reconnect committing meanwhile may have added
  // or dropped accounts, and writing back the list read above would undo that.
  const updated = await services.db.transaction(async (tx) => {
    const current = await lockConnector(tx, row.id);
    if (!current) return undefined;
    const accounts = current.accounts.map((account) => ({ ...account, name: names.get(account.id) ?? account.name }));
    return updateConnector(tx, row.id, { accounts });
  });
  if (!updated) throw new AppError('NOT_FOUND', CONNECTOR_NOT_FOUND, { field: 'key' });
  return toConnectorView(updated);
}

/** Deletes the connector with its hooks and notifications (foreign keys cascade). */
export async function deleteConnector(services: Services, actor: Actor, key: string): Promise<boolean> {
  const row = await requireConnector(services, actor.userId, key);
  const changed = await services.db.transaction(async (tx) => {
    const shortKeys = await notifyHookChanged(tx, await listHookShortKeys(tx, row.id));
    await cancelQueuedOfDeletedHooks(tx, actor, { connectorId: row.id });
    await deleteConnectorRow(tx, row.id);
    await recordAction(tx, {
      userId: actor.userId,
      code: 'ConnectorDelete',
      address: actor.address,
      metadata: connectorActionMetadata(row),
    });
    return shortKeys;
  });
  hooksChangedHere(services, changed);
  forgetSession(services, row.id);
  await disconnectAtBroker(services, row);
  return true;
}
