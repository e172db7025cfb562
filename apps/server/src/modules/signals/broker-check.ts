// A test hook's "check without placing" (Broker.checkOrder): the broker's own checks of the order,
// the mapping placeOrder runs before sending, without a session or a call. A refusal is answered
// as the live signal's (outcome.ts fromError), so a test says what a live signal would hear; a
// broker without checkOrder checks the order language only.
import type { Broker } from '@router/brokers';
import type { Order } from '@router/orders';
import type { Logger } from 'pino';
import { fromError } from './outcome.ts';
import type { Answer } from './types.ts';

export interface BrokerCheck {
  broker: Broker | undefined;
  /** The broker's title, as in the live answer. */
  title: string;
  accountId: string;
  order: Order;
  /** The signal's id: the client order id it would be placed with. */
  signalId: string;
}

/** The live path's refusal of this order, or undefined when the broker's checks pass (or it has none). */
export function brokerRefusal(check: BrokerCheck, log: Pick<Logger, 'error'>): Answer | undefined {
  const { broker, title, accountId, order, signalId } = check;
  if (!broker?.checkOrder) return undefined;
  try {
    broker.checkOrder({ accountId, order, clientOrderId: signalId });
    return undefined;
  } catch (error) {
    const outcome = fromError(signalId, title, error);
    if (outcome.event === 'reject') return outcome.answer;
    // Not a refusal the broker's checks give (a bug in one): the order language's answer stands.
    log.error({ err: error, signalId }, 'broker order check failed');
    return undefined;
  }
}
