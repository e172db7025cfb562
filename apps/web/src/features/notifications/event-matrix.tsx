import { NOTIFICATION_EVENT_LABELS, NOTIFICATION_EVENTS } from '@router/shared';
import type { UseFormRegister } from 'react-hook-form';
import type { NotificationFormValues } from './notification-form.tsx';

/** Which events each channel hears: a row per event, a column per channel turned on. */
export function EventMatrix({
  register,
  email,
  hook,
  errors,
}: {
  register: UseFormRegister<NotificationFormValues>;
  email: boolean;
  hook: boolean;
  /** The email column's and the webhook column's message ('Choose at least one event'). */
  errors: [string | undefined, string | undefined];
}) {
  const columns = [
    { on: email, name: 'emailEvents', title: 'Email', by: 'by email', error: errors[0] },
    { on: hook, name: 'hookEvents', title: 'Webhook', by: 'by webhook', error: errors[1] },
  ] as const;
  const shown = columns.filter((column) => column.on);
  return (
    <fieldset className="mt-3">
      <legend className="h6">Events</legend>
      <div className="table-responsive">
        <table className="table table-sm align-middle mb-1">
          <thead>
            <tr>
              <th scope="col">Event</th>
              {shown.map((column) => (
                <th key={column.name} scope="col" className="text-center">
                  {column.title}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {NOTIFICATION_EVENTS.map((event) => (
              <tr key={event}>
                <th scope="row" className="fw-normal">
                  {NOTIFICATION_EVENT_LABELS[event]} <code className="small text-secondary">{event}</code>
                </th>
                {shown.map((column) => (
                  <td key={column.name} className="text-center">
                    <input
                      type="checkbox"
                      className="form-check-input"
                      value={event}
                      aria-label={`${NOTIFICATION_EVENT_LABELS[event]} ${column.by}`}
                      {...register(column.name)}
                    />
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {shown.map(
        (column) =>
          column.error && (
            <div key={column.name} className="text-danger small" role="alert">
              {shown.length > 1 ? `${column.title}: ` : ''}
              {column.error}
            </div>
          ),
      )}
    </fieldset>
  );
}
