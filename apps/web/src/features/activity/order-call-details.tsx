import { formatCount } from '../../lib/format.ts';
import type { OrderCall } from './order-call.ts';

/** The expanded part of an Order row: request, response (danger or success) and elapsed ms. */
export function OrderCallDetails({ call, id }: { call: OrderCall; id: string }) {
  const tone = call.failed ? 'danger' : 'success';
  return (
    <div id={id} className="row g-3 py-2" data-testid="order-call">
      <div className="col-12 col-lg-6">
        <h3 className="h6 small text-secondary mb-1">Request</h3>
        <pre className="activity-json border rounded p-2 mb-0 small bg-body-tertiary">{call.request}</pre>
      </div>
      <div className="col-12 col-lg-6">
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
      </div>
    </div>
  );
}
