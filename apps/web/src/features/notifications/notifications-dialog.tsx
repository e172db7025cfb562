import type { NotificationType } from '@router/shared';
import { useId, useState } from 'react';
import Modal from 'react-bootstrap/Modal';
import { useQuery } from 'urql';
import { DelayedSpinner } from '../../components/delayed-spinner.tsx';
import { useCall } from '../../lib/call.ts';
import { useSession } from '../../lib/session.tsx';
import type { ConnectorAccount } from '../connectors/connector-model.ts';
import {
  NotificationCreateDocument,
  NotificationDeleteDocument,
  NotificationsDocument,
  NotificationUpdateDocument,
} from './documents.ts';
import { NotificationForm } from './notification-form.tsx';
import { type NotificationChoice, saveNotifications } from './notification-model.ts';

/** SPEC §2 account notifications dialog; demo connectors and accounts cannot be saved. */
export function NotificationsDialog({
  connector,
  account,
  onClose,
}: {
  connector: { key: string; isDemo: boolean };
  account: ConnectorAccount;
  onClose: () => void;
}) {
  const formId = useId();
  const { mutate } = useCall();
  const { user } = useSession();
  const liveOnly = connector.isDemo || account.demo;
  const variables = { connectorKey: connector.key, accountId: account.id };
  const [{ data, error, fetching }, refetch] = useQuery({
    query: NotificationsDocument,
    variables,
    requestPolicy: 'network-only',
    pause: liveOnly,
  });
  const [failure, setFailure] = useState<string | null>(null);
  const notifications = liveOnly ? [] : data?.notifications;

  async function save(choices: NotificationChoice[]) {
    setFailure(null);
    const message = await saveNotifications(notifications ?? [], choices, {
      create: (type: NotificationType, metadata) =>
        mutate(NotificationCreateDocument, { ...variables, type, metadata }),
      update: (key, metadata) => mutate(NotificationUpdateDocument, { key, metadata }),
      remove: (key) => mutate(NotificationDeleteDocument, { key }),
    });
    if (message) {
      setFailure(message);
      refetch({ requestPolicy: 'network-only' });
    } else onClose();
  }

  return (
    <Modal show onHide={onClose} centered aria-labelledby={`${formId}-title`}>
      <Modal.Header closeButton>
        <Modal.Title id={`${formId}-title`} as="h2" className="h5">
          Notifications · {account.name}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <p className="text-secondary small">
          Where to tell you about orders placed, rejected or failed on this account.
        </p>
        {notifications ? (
          <NotificationForm
            id={formId}
            notifications={notifications}
            userEmail={user?.email ?? ''}
            liveOnly={liveOnly}
            onSave={save}
          />
        ) : error && !fetching ? (
          <div className="alert alert-danger mb-0" role="alert">
            Cannot load the notification settings.{' '}
            <button type="button" className="btn btn-link p-0 align-baseline" onClick={() => refetch()}>
              Try again
            </button>
          </div>
        ) : (
          <DelayedSpinner />
        )}
        {failure && (
          <div className="alert alert-danger mt-3 mb-0" role="alert">
            {failure}
          </div>
        )}
      </Modal.Body>
      <Modal.Footer>
        <button type="button" className="btn btn-secondary" onClick={onClose}>
          Cancel
        </button>
        <button type="submit" form={formId} className="btn btn-primary" disabled={liveOnly || !notifications}>
          Save
        </button>
      </Modal.Footer>
    </Modal>
  );
}
