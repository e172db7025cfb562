// A connector whose broker rejects its credentials is deactivated, with an action logged. Its
// hooks keep their own state: the hook endpoint refuses them while the connector is inactive
// (CONNECTOR_DEACTIVATED_MESSAGE), and a reconnect makes them work again. Its notification
// settings hear of it (connector.deactivated, emitted in the same transaction).
import { recordAction } from '../../db/repositories/action.repository.ts';
import { deactivateConnectorRow } from '../../db/repositories/connectors.repository.ts';
import { listHookShortKeys, notifyHookChanged } from '../../db/repositories/hooks.repository.ts';
import type { Services } from '../../services.ts';
import { hooksChangedHere } from '../hooks/hook-cache.ts';
import { emitEvents } from '../notifications/events.ts';
import { forgetSession } from './session-cache.ts';
import { connectorActionMetadata } from './types.ts';

/**
 * True when this call deactivated it (false: unknown, already inactive, or updated after
 * `version`, the updated_at in ms of the credentials the broker refused).
 */
export async function deactivateConnector(
  services: Services,
  connectorId: number,
  reason: string,
  version?: number,
): Promise<boolean> {
  let changed: readonly string[] = [];
  const done = await services.db.transaction(async (tx) => {
    const row = await deactivateConnectorRow(tx, connectorId, reason, version);
    if (!row) return false;
    await recordAction(tx, {
      userId: row.userId,
      code: 'ConnectorDeactivate',
      address: null,
      metadata: connectorActionMetadata(row, { reason }),
    });
    changed = await notifyHookChanged(tx, await listHookShortKeys(tx, connectorId));
    await emitEvents(tx, [
      {
        userId: row.userId,
        connectorId: row.id,
        type: 'connector.deactivated',
        data: {
          connectorKey: row.key,
          providerName: row.providerName,
          accountIds: row.accounts.map((a) => a.id),
          reason,
        },
      },
    ]);
    return true;
  });
  // This instance refuses the next signal at once, not when its own hook_changed comes back.
  hooksChangedHere(services, changed);
  forgetSession(services, connectorId);
  return done;
}
