// What happens to an order after ResponseNewOrder (313) gave its basket_id: the notifications of
// the order plant (351 Rithmic side, 352 exchange side) are watched for a short while for the
// first decisive one: working at the exchange, filled, rejected or canceled. Without one in time
// the order stays "accepted": Rithmic has it (313 said so), its later fate is its own.
import type { OrderResponse } from '@router/orders';
import { BrokerError } from '../../core/errors.ts';
import { matchException } from '../../core/exceptions.ts';
import type { Connection } from './connection.ts';
import { RITHMIC_TITLE, rithmicDescriptor } from './descriptor.ts';
import { reasonOf, responseOf, statusOf } from './mapper.ts';
import type { RithmicFields } from './protocol.ts';

/** How long notifications are waited for after 313 (within the caller's deadline). */
export const NOTIFICATION_WAIT_MS = 2_000;
const OPEN = 13;
const STATUS = 1;

function isDecisive(notification: RithmicFields): boolean {
  if (statusOf(notification) !== 'accepted') return true;
  if (notification.template_id === 351) return notification.notify_type === OPEN;
  return notification.notify_type === STATUS && notification.status === 'open';
}

export interface OrderWatch {
  /** The order's state once a decisive notification came, or accepted when none did in time. */
  outcome(basketId: string, signal?: AbortSignal): Promise<OrderResponse>;
  stop(): void;
}

/** Starts collecting the notifications of the order tagged `userTag` (before it is sent). */
export function watchOrder(connection: Connection, userTag: string): OrderWatch {
  const seen: RithmicFields[] = [];
  let wake: () => void = () => undefined;
  const stop = connection.onNotification((notification) => {
    if (notification.user_tag !== userTag) return;
    seen.push(notification);
    wake();
  });
  const decisive = (basketId: string) =>
    seen.find((item) => (!item.basket_id || item.basket_id === basketId) && isDecisive(item));

  return {
    async outcome(basketId, signal) {
      let found = decisive(basketId);
      if (!found) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, NOTIFICATION_WAIT_MS);
          signal?.addEventListener('abort', () => resolve(), { once: true });
          wake = () => {
            if (!decisive(basketId)) return;
            clearTimeout(timer);
            resolve();
          };
        });
        found = decisive(basketId);
      }
      if (!found) return { id: basketId, status: 'accepted', status_description: 'Rithmic order received' };
      if (statusOf(found) === 'rejected') {
        const reason = reasonOf(found);
        throw new BrokerError(
          matchException(rithmicDescriptor.exceptions, reason) ?? 'InvalidOrder',
          RITHMIC_TITLE,
          reason,
        );
      }
      return { ...responseOf(found), id: basketId };
    },
    stop,
  };
}
