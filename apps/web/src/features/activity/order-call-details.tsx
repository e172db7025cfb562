import { formatCount } from '../../lib/format.ts';
import type { OrderCall } from './order-call.ts';

const PANE = 'col-12 col-lg-4';

/**
 * The expanded part of an Order row, side by side: the request as received, the normalized order
 * sent to the broker, and the answer (danger or success); elapsed ms with its per-phase split.
 */
export function OrderCallDetails({ call, id, split }: { call: OrderCall; id: string; split?: string }) {
  const tone = call.failed ? 'danger' : 'success';
  return (
    <div id={id} className="row g-3 py-2" data-testid="order-call">
      <div className={PANE}>
        <h3 className="h6 small text-secondary mb-1">Request</h3>
        <pre className="activity-json border rounded p-2 mb-0 small bg-body-tertiary">{call.request}</pre>
      </div>
      <div className={PANE}>
        <h3 className="h6 small text-secondary mb-1">Normalized order (sent to the broker)</h3>
        <pre className="activity-json border rounded p-2 mb-0 small bg-body-tertiary" data-testid="order-call-order">
          {call.order}
        </pre>
      </div>
      <div className={PANE}>
        <h3 className="h6 small text-secondary mb-1">Response</h3>
        <pre
          className={`activity-json border rounded p-2 mb-0 small border-${tone}-subtle bg-${tone}-subtle text-${tone}-emphasis`}
          data-testid="order-call-response"
          data-tone={tone}
        >
          {call.response}
        </pre>
      </div>
      <div className="col-12 small text-secondary">
        Elapsed: {call.elapsedMs === null ? '-' : `${formatCount(call.elapsedMs)} ms`}
        {split ? ` (${split} ms)` : ''}
      </div>
    </div>
  );
}
