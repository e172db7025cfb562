// paperAccount and paperAccountReset: a paper account's state and its reset, for the caller's
// own paper connectors only (another user's key is not found, and nothing changes).
import { isPaperBroker, type PaperAccountView, type PaperBroker } from '@router/brokers';
import { AppError } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { holdsAccount } from '../connectors/holds-account.ts';
import { type Actor, asAppError, requireConnector, withBrokerSession } from '../connectors/index.ts';

export const PAPER_ACCOUNT_NOT_FOUND = 'Paper account not found';

export interface PaperAccountResult extends PaperAccountView {
  connectorKey: string;
}

async function onPaperAccount(
  services: Services,
  actor: Actor,
  connectorKey: string,
  accountId: string,
  call: (broker: PaperBroker, ...args: Parameters<PaperBroker['accountView']>) => Promise<PaperAccountView>,
): Promise<PaperAccountResult> {
  const connector = await requireConnector(services, actor.userId, connectorKey);
  const broker = await services.brokers.load(connector.providerName);
  if (!broker || !isPaperBroker(broker) || !holdsAccount(connector, accountId)) {
    throw new AppError('NOT_FOUND', PAPER_ACCOUNT_NOT_FOUND, { field: 'accountId' });
  }
  try {
    const view = await withBrokerSession(services, connector, ({ ctx, session }) =>
      call(broker, ctx, session, accountId),
    );
    // The connection's own name for the account (renamable on Brokers & Webhooks).
    const name = connector.accounts.find((account) => account.id === accountId)?.name ?? view.name;
    return { ...view, name, connectorKey: connector.key };
  } catch (error) {
    throw asAppError(error);
  }
}

export function getPaperAccount(services: Services, actor: Actor, connectorKey: string, accountId: string) {
  return onPaperAccount(services, actor, connectorKey, accountId, (broker, ...args) => broker.accountView(...args));
}

/** Back to the starting cash: open orders canceled, positions cleared. */
export function resetPaperAccount(services: Services, actor: Actor, connectorKey: string, accountId: string) {
  return onPaperAccount(services, actor, connectorKey, accountId, (broker, ...args) => broker.resetAccount(...args));
}
