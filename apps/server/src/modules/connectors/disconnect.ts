// After a connection is deleted: what connecting started at the broker's side and keeps costing
// stops too (MetaApi's terminal for an account the site added: Broker.disconnect), unless another
// connection, the user's or another user's, holds the same account. At most 10 s; a failure is
// logged for the operator and the deletion stands.
import { accountsHeldElsewhere, type ConnectorRow } from '../../db/repositories/connectors.repository.ts';
import type { Services } from '../../services.ts';
import { brokerContextFor } from './provider.ts';
import { openSession } from './session.ts';

const DISCONNECT_TIMEOUT_MS = 10_000;

export async function disconnectAtBroker(services: Services, connector: ConnectorRow): Promise<void> {
  const broker = await services.brokers.load(connector.providerName);
  if (!broker?.disconnect || !connector.secrets) return;
  const fields = { connectorId: connector.id, provider: connector.providerName };
  try {
    const accountIds = connector.accounts.map((account) => account.id);
    if (await accountsHeldElsewhere(services.db, connector.providerName, connector.id, accountIds)) return;
    const ctx = brokerContextFor(services, broker, AbortSignal.timeout(DISCONNECT_TIMEOUT_MS));
    await broker.disconnect(ctx, openSession(services, connector));
    services.log.info(fields, 'stopped at the broker: the deleted connection');
  } catch (err) {
    services.log.warn({ ...fields, err }, 'the deleted connection could not be stopped at the broker');
  }
}
