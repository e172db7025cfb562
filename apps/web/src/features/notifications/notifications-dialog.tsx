import { NOTIFICATION_DELIVERY_LOG_SIZE, notificationsAllowed } from '@router/shared';
import { useId, useState } from 'react';
import Modal from 'react-bootstrap/Modal';
import { DelayedSpinner } from '../../components/delayed-spinner.tsx';
import { useSession } from '../../lib/session.tsx';
import type { ConnectorAccount } from '../connectors/connector-model.ts';
import { DeliveryLog } from './delivery-log.tsx';
import { NotificationForm } from './notification-form.tsx';
import type { NotificationChoice } from './notification-model.ts';
import { SettingActions } from './setting-actions.tsx';
import { useNotificationPanel } from './use-notification-panel.ts';
import { VerifyHelp } from './verify-help.tsx';
import { WebhookSecret } from './webhook-secret.tsx';

/**
 * SPEC §2 account notifications dialog, grown into the account's notifications panel (issue
 * #17): channels and events, the webhook secret once, tests, the delivery log and re-sends. A
 * broker's demo connectors and accounts cannot be saved; paper accounts can.
 */
export function NotificationsDialog({
  connector,
  account,
  onClose,
}: {
  connector: { key: string; providerName: string; isDemo: boolean };
  account: ConnectorAccount;
  onClose: () => void;
}) {
  const formId = useId();
  const { user } = useSession();
  const liveOnly = !notificationsAllowed(connector.providerName, connector.isDemo, account.demo);
  const panel = useNotificationPanel({ connectorKey: connector.key, accountId: account.id }, liveOnly);
  const notifications = liveOnly ? [] : panel.notifications;
  // The form starts from the saved settings: a new set of them (after a save) starts it again.
  // Not while an action runs, nor after a save that stopped halfway: it changed some of them, and
  // starting again would drop what the trader typed for the rest; nor over what was typed since
  // the form started or was last saved (while the settings were read again after a save): that
  // stays, unsaved, and the next save is checked against the settings read.
  const savedKey = JSON.stringify(notifications?.map((n) => [n.key, n.metadata, n.isEnabled]));
  const [formKey, setFormKey] = useState(savedKey);
  const [formStart, setFormStart] = useState(0);
  const [edited, setEdited] = useState(false);
  if (formKey !== savedKey && panel.busy === null && !panel.saveFailed && !panel.settingsFetching) {
    setFormKey(savedKey);
    if (!edited) setFormStart((n) => n + 1);
  }
  const save = (choices: NotificationChoice[]) => {
    setEdited(false);
    return panel.save(choices);
  };

  return (
    <Modal show onHide={onClose} centered size="lg" scrollable aria-labelledby={`${formId}-title`}>
      <Modal.Header closeButton>
        <Modal.Title id={`${formId}-title`} as="h2" className="h5">
          Notifications · {account.name}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <p className="text-secondary small">
          Where to tell you about orders placed, filled or rejected, refused signals, broker connections and credits on
          this account.
        </p>
        {notifications && (
          <NotificationForm
            key={formStart}
            id={formId}
            notifications={notifications}
            userEmail={user?.email ?? ''}
            liveOnly={liveOnly}
            onEdit={() => setEdited(true)}
            onSave={save}
          />
        )}
        {/* A reload that fails after the form showed keeps it, with what was typed, under this alert. */}
        {panel.settingsError ? (
          <div className={`alert alert-danger mb-0${notifications ? ' mt-3' : ''}`} role="alert">
            Cannot load the notification settings.{' '}
            <button type="button" className="btn btn-link p-0 align-baseline" onClick={panel.retry}>
              Try again
            </button>
          </div>
        ) : (
          !notifications && <DelayedSpinner className="py-3 text-center" />
        )}
        {panel.failure && (
          <div className="alert alert-danger mt-3 mb-0" role="alert">
            {panel.failure}
          </div>
        )}
        {panel.notice && (
          <output className="d-block alert alert-info mt-3 mb-0" aria-live="polite">
            {panel.notice}
          </output>
        )}
        {!liveOnly && notifications && (
          <section className="mt-4" aria-labelledby={`${formId}-saved`}>
            <h3 id={`${formId}-saved`} className="h6">
              Saved settings
            </h3>
            {panel.secret && <WebhookSecret secret={panel.secret} onDone={panel.clearSecret} />}
            <SettingActions
              notifications={notifications}
              busy={panel.busy}
              onTest={panel.test}
              onRotate={panel.rotate}
            />
            <VerifyHelp />
            <h3 id={`${formId}-log`} className="h6">
              Recent deliveries <span className="text-secondary small">(last {NOTIFICATION_DELIVERY_LOG_SIZE})</span>
            </h3>
            {panel.deliveries ? (
              <DeliveryLog deliveries={panel.deliveries} busy={panel.busy} onResend={panel.resend} />
            ) : panel.deliveriesError ? (
              <div className="alert alert-danger mb-0" role="alert">
                Cannot load the deliveries.{' '}
                <button type="button" className="btn btn-link p-0 align-baseline" onClick={panel.retry}>
                  Try again
                </button>
              </div>
            ) : (
              <DelayedSpinner className="py-3 text-center" />
            )}
          </section>
        )}
      </Modal.Body>
      <Modal.Footer>
        <button type="button" className="btn btn-secondary" onClick={onClose}>
          Close
        </button>
        <button
          type="submit"
          form={formId}
          className="btn btn-primary"
          disabled={liveOnly || !notifications || panel.settingsError || panel.busy !== null}
        >
          Save
        </button>
      </Modal.Footer>
    </Modal>
  );
}
