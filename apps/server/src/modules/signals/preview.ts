// orderPreview (SPEC §4 Playground test flow): the hook's normalization and validation, then the
// broker's own checks (Broker.checkOrder, as a test hook runs them), then its own preview where it
// has one (paper does), else the normalized order as a draft.
// Nothing is placed, stored or charged.
import { normalizeOrder, type Order } from '@router/orders';
import { findConnector } from '../../db/repositories/connectors.repository.ts';
import { AppError } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { holdsAccount } from '../connectors/holds-account.ts';
import { asAppError, withBrokerSession } from '../connectors/index.ts';
import { brokerRefusal } from './broker-check.ts';
import { newSignalId } from './signal-id.ts';

export const CONNECT_FIRST = 'Please, connect the broker to submit test orders';
export const RECONNECT = 'Please, reconnect the broker';

export interface PreviewInput {
  connectorKey: string;
  accountId?: string | null;
  /** The order as JSON text. */
  data: string;
}

export async function previewOrder(
  services: Services,
  userId: number,
  input: PreviewInput,
): Promise<Record<string, unknown>> {
  const connector = input.connectorKey ? await findConnector(services.db, userId, input.connectorKey) : undefined;
  const broker = connector && (await services.brokers.load(connector.providerName));
  const accountId = input.accountId || connector?.accounts[0]?.id;
  if (!connector || !broker || !accountId || !holdsAccount(connector, accountId)) {
    throw new AppError('EXECUTION', CONNECT_FIRST, { field: 'connectorKey' });
  }
  if (!connector.isActive) throw new AppError('EXECUTION', RECONNECT, { field: 'connectorKey' });
  // normalizeOrder reads past a byte-order mark, as the hook does.
  const normalized = normalizeOrder(input.data, { provider: broker.descriptor });
  if (!normalized.ok) throw new AppError('VALIDATION', normalized.error.message, { field: normalized.error.field });
  const { order } = normalized;
  const id = newSignalId();
  // The broker's own checks, as a test hook runs them (broker-check.ts): what it would refuse live.
  const refused = brokerRefusal(
    { broker, title: broker.descriptor.title, accountId, order, signalId: id },
    services.log,
  );
  if (refused) throw new AppError('EXECUTION', String(refused.body.message));
  if (!broker.previewOrder) {
    const { title } = broker.descriptor;
    return draft(id, order, `${title} has no preview: this is the order as it would be sent`);
  }
  try {
    const result = await withBrokerSession(
      services,
      connector,
      ({ broker: b, ctx, session }) =>
        (b.previewOrder as NonNullable<typeof b.previewOrder>)(ctx, session, { accountId, order, clientOrderId: id }),
      { signal: AbortSignal.timeout(services.config.HOOK_DEADLINE_MS) },
    );
    return { ...result, order };
  } catch (error) {
    throw asAppError(error);
  }
}

function draft(id: string, order: Order, description: string): Record<string, unknown> {
  return { id, status: 'draft', status_description: description, order };
}
