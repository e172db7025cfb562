import { NOTIFICATION_EVENT_LABELS, type NotificationEventType } from '@router/shared';
import { formatDateTime, formatIsoSeconds } from '../../lib/format.ts';
import { CHANNEL_NAMES, type DeliveryItem, deliveryState } from './notification-model.ts';

const eventLabel = (event: string) => NOTIFICATION_EVENT_LABELS[event as NotificationEventType] ?? event;

/** The last 50 deliveries of the account's settings, newest first, each with a re-send. */
export function DeliveryLog({
  deliveries,
  busy,
  onResend,
}: {
  deliveries: readonly DeliveryItem[];
  busy: string | null;
  onResend: (delivery: DeliveryItem) => void;
}) {
  if (deliveries.length === 0) return <p className="text-secondary small mb-0">No deliveries yet.</p>;
  return (
    <div className="table-responsive">
      <table className="table table-sm align-middle small mb-0">
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">Channel</th>
            <th scope="col">Event</th>
            <th scope="col">Status</th>
            <th scope="col" className="text-end">
              Attempts
            </th>
            <th scope="col">Response</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {deliveries.map((delivery) => {
            const state = deliveryState(delivery);
            const time = formatDateTime(delivery.lastAttemptAt ?? delivery.createdAt);
            return (
              <tr key={delivery.id}>
                <td title={formatIsoSeconds(delivery.lastAttemptAt ?? delivery.createdAt)} className="text-nowrap">
                  {time}
                </td>
                <td>{CHANNEL_NAMES[delivery.type] ?? delivery.type}</td>
                <td title={`webhook-id ${delivery.eventId}`}>{eventLabel(delivery.event)}</td>
                <td>
                  <span className={`badge text-bg-${state.tone}`}>{state.label}</span>
                </td>
                <td className="text-end">{delivery.attempts}</td>
                <td className="text-break">
                  {delivery.responseCode ?? ''}
                  {delivery.error && <span className="text-secondary"> {delivery.error}</span>}
                </td>
                <td className="text-end">
                  <button
                    type="button"
                    className="btn btn-sm btn-link p-0 text-nowrap"
                    disabled={busy !== null}
                    onClick={() => onResend(delivery)}
                    aria-label={`Re-send ${eventLabel(delivery.event)} of ${time}`}
                  >
                    Re-send
                  </button>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
