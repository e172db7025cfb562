import { formatDateTime } from '../../lib/format.ts';
import { type ConnectorItem, type ConnectorState, DEACTIVATED_MESSAGE, STATE_LABELS } from './connector-model.ts';

const BADGE: Record<ConnectorState, string> = {
  active: 'text-bg-success',
  deactivated: 'text-bg-secondary',
  expired: 'text-bg-danger',
  expiring: 'text-bg-warning',
};

export function ConnectorStateBadge({ state }: { state: ConnectorState }) {
  return <span className={`badge ${BADGE[state]}`}>{STATE_LABELS[state]}</span>;
}

/** What needs the user: deactivated, expired or about to expire, each with Reconnect. */
export function ConnectorStateAlert({
  connector,
  state,
  onReconnect,
}: {
  connector: ConnectorItem;
  state: ConnectorState;
  onReconnect: () => void;
}) {
  if (state === 'active') return null;
  const when = connector.expiresAt ? formatDateTime(connector.expiresAt) : '';
  const text =
    state === 'deactivated'
      ? DEACTIVATED_MESSAGE
      : state === 'expired'
        ? `The connection expired${when ? ` on ${when}` : ''}. Reconnect to keep your webhooks trading.`
        : `The connection is about to expire soon${when ? ` (${when})` : ''}. Reconnect to keep it working.`;
  return (
    <div
      className={`alert ${state === 'expiring' ? 'alert-warning' : 'alert-danger'} d-flex flex-wrap align-items-center gap-2 py-2`}
      role="status"
    >
      <span className="flex-grow-1">{text}</span>
      <button type="button" className="btn btn-sm btn-outline-dark" onClick={onReconnect}>
        Reconnect
      </button>
    </div>
  );
}
