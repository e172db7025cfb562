// The cancel signal (and a full close) at brokers with no call for it: the symbol's open orders
// canceled one by one. A failure partway must not read as a whole refusal: the orders canceled
// before it are gone.
import { BrokerError } from './errors.ts';

/**
 * Cancels each of the `ids` (the open orders of `symbol`) in turn with `cancel`, which may answer
 * false for one gone meanwhile (filled or canceled: not counted); the ids canceled. When
 * one fails after others were canceled, the error (its kind and outcomeUnknown kept) says which
 * were canceled, which one failed (canceled or not, unknown when its outcome is) and which were
 * not tried. A failure of the first is handed back as is: nothing was canceled.
 */
export async function cancelEach(
  ids: readonly string[],
  symbol: string,
  cancel: (id: string) => Promise<unknown>,
): Promise<string[]> {
  const done: string[] = [];
  for (const [index, id] of ids.entries()) {
    try {
      if ((await cancel(id)) === false) continue;
    } catch (error) {
      if (!(error instanceof BrokerError) || done.length === 0) throw error;
      const rest = ids.slice(index + 1);
      const failed = error.outcomeUnknown
        ? `${id} perhaps (its cancel's outcome unknown)`
        : `not ${[id, ...rest].join(', ')}`;
      const untried = error.outcomeUnknown && rest.length ? `, not ${rest.join(', ')}` : '';
      const told = `${error.brokerMessage}; of the open orders of ${symbol}, only some were canceled: ${done.join(', ')}; ${failed}${untried}: check them at the broker`;
      const { kind, brokerTitle, outcomeUnknown, retryAfter } = error;
      throw new BrokerError(kind, brokerTitle, told, {
        cause: error,
        outcomeUnknown,
        ...(retryAfter !== undefined ? { retryAfter } : {}),
      });
    }
    done.push(id);
  }
  return done;
}
