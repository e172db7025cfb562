import { useState } from 'react';
import { useQuery } from 'urql';
import { useCall } from '../../lib/call.ts';
import { errorMessage } from '../../lib/error-message.ts';
import { formatDateTime, formatQuantity } from '../../lib/format.ts';
import { useLastLoaded } from '../../lib/use-last-loaded.ts';
import { useLiveReload } from '../live/live-provider.tsx';
import { QueuedSignalCancelDocument, QueuedSignalsDocument } from './documents.ts';

/** "buy 1,500 AAPL" from the order as read on arrival (JSON text); a quantity expression as written. */
function describeOrder(order: string): string {
  try {
    const o = JSON.parse(order) as { action?: string; quantity?: number | string; symbol?: string };
    const quantity = typeof o.quantity === 'number' ? formatQuantity(o.quantity) : o.quantity;
    return [o.action, quantity, o.symbol].filter((part) => part !== undefined).join(' ');
  } catch {
    return order;
  }
}

/**
 * The webhook's signals waiting for its trading window (outsideWindow: "queue"), each with when
 * it will be placed and a Cancel; nothing when there are none.
 */
export function QueuedSignals({ hookKey }: { hookKey: string }) {
  const [result, reexecute] = useQuery({ query: QueuedSignalsDocument, requestPolicy: 'cache-and-network' });
  // Live: a window that opened placed them (an entry of its own), so they are no longer to cancel.
  useLiveReload(() => reexecute({ requestPolicy: 'network-only' }));
  const { mutate } = useCall();
  const [error, setError] = useState<string | null>(null);
  // The signal being cancelled, and those cancelled until the list says so: a second click would
  // answer 'not found' for a cancelled one.
  const [cancelling, setCancelling] = useState<string | null>(null);
  const [cancelled, setCancelled] = useState<ReadonlySet<string>>(() => new Set());
  // A reload that fails (after a cancel) keeps the list: the signals in it are still to be placed.
  const queued = useLastLoaded(result.data?.queuedSignals);
  const waiting = (queued ?? []).filter((s) => s.hookKey === hookKey && s.status === 'queued' && !cancelled.has(s.id));
  if (waiting.length === 0 && !error) return null;

  async function cancel(id: string) {
    setCancelling(id);
    setError(null);
    try {
      await mutate(QueuedSignalCancelDocument, { id });
      setCancelled((ids) => new Set(ids).add(id));
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setCancelling(null);
    }
    reexecute({ requestPolicy: 'network-only' });
  }

  return (
    <section className="mt-2 small" aria-label="Queued signals">
      <div className="fw-semibold mb-1">Queued until the trading window opens</div>
      <ul className="list-unstyled mb-0">
        {waiting.map((signal) => (
          <li key={signal.id} className="d-flex align-items-center gap-2 mb-1">
            <span>
              {describeOrder(signal.order)}, placed at{' '}
              <time dateTime={new Date(signal.placeAt).toISOString()}>{formatDateTime(signal.placeAt)}</time>
            </span>
            <button
              type="button"
              className="btn btn-sm btn-outline-secondary"
              disabled={cancelling !== null}
              onClick={() => void cancel(signal.id)}
            >
              Cancel
            </button>
          </li>
        ))}
      </ul>
      {error && (
        <div className="text-danger" role="alert">
          {error}
        </div>
      )}
    </section>
  );
}
