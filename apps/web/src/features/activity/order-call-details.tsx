import { formatCount } from '../../lib/format.ts';
import type { OrderCall } from './order-call.ts';
import { type PillProps, ResultPill, resultTitle } from './trade-line.tsx';

/** Four panes side by side on a wide screen, two by two on a tablet, stacked on a phone. */
const PANE = 'col-12 col-md-6 col-xl-3';
const CODE = 'activity-json border rounded p-2 mb-0 small bg-body-tertiary';

function Pane({ title, testId, children }: { title: string; testId: string; children: string }) {
  return (
    <div className={PANE}>
      <h3 className="h6 small text-secondary mb-1">{title}</h3>
      <pre className={CODE} data-testid={testId}>
        {children}
      </pre>
    </div>
  );
}

/**
 * The expanded part of an Order row, side by side: the request as received, the normalized order,
 * the request as sent to the broker (secrets redacted by the server), and the answer (danger or
 * success); elapsed ms with its per-phase split.
 */
export function OrderCallDetails({
  call,
  id,
  split,
  result,
}: {
  call: OrderCall;
  id: string;
  split?: string;
  /** The trade line's result: the same pill, with what it means. */
  result?: PillProps;
}) {
  const tone = call.failed ? 'danger' : 'success';
  return (
    <div id={id} className="row g-3 py-2" data-testid="order-call">
      {result && (
        <p className="col-12 mb-0 small" data-testid="order-call-result">
          <ResultPill {...result} />{' '}
          <span className="ms-1">{resultTitle(result.result, result.repeat, result.checking, result.status)}</span>
        </p>
      )}
      <Pane title="Request" testId="order-call-request">
        {call.request}
      </Pane>
      <Pane title="Normalized order" testId="order-call-order">
        {call.order}
      </Pane>
      <Pane title="Broker request" testId="order-call-broker-request">
        {call.brokerRequest ?? call.notSent}
      </Pane>
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
