// The notifications panel's data and actions: settings, the delivery log (refreshed while a
// delivery waits, fast only while one is due, and when a signal or a credit change may have made
// new ones: live updates), saving, tests, re-sends and secret rotation; a new secret is kept to be shown once.
import type { NotificationType } from '@router/shared';
import { useEffect, useState } from 'react';
import { useQuery } from 'urql';
import { useCall } from '../../lib/call.ts';
import { errorMessage } from '../../lib/error-message.ts';
import { useLastLoaded } from '../../lib/use-last-loaded.ts';
import { useLiveReload } from '../live/live-provider.tsx';
import {
  NotificationCreateDocument,
  NotificationDeleteDocument,
  NotificationDeliveriesDocument,
  NotificationDeliveryResendDocument,
  NotificationSecretRotateDocument,
  NotificationsDocument,
  NotificationTestDocument,
  NotificationUpdateDocument,
} from './documents.ts';
import {
  type DeliveryItem,
  deliveryRefreshMs,
  type NotificationChoice,
  type NotificationItem,
  saveNotifications,
} from './notification-model.ts';

export function useNotificationPanel(variables: { connectorKey: string; accountId: string }, paused: boolean) {
  const { mutate } = useCall();
  const [settings, refetchSettings] = useQuery({
    query: NotificationsDocument,
    variables,
    requestPolicy: 'network-only',
    pause: paused,
  });
  const [log, refetchLog] = useQuery({
    query: NotificationDeliveriesDocument,
    variables,
    requestPolicy: 'network-only',
    pause: paused,
  });
  const [secret, setSecret] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  /** The last save stopped at a failure: what the form holds is not all saved. */
  const [saveFailed, setSaveFailed] = useState(false);
  // The settings last read: a reload that fails keeps the form (and what was typed in it) on them.
  const loaded = settings.data?.notifications as readonly NotificationItem[] | undefined;
  const shown = useLastLoaded(loaded);
  // The log last read: a refresh that fails for a moment keeps it (and, while one of its
  // deliveries waits, the refresh goes on).
  const deliveries = useLastLoaded(log.data?.notificationDeliveries);
  useEffect(() => {
    const after = log.fetching || !deliveries ? null : deliveryRefreshMs(deliveries, Date.now());
    if (after === null) return;
    const timer = setTimeout(() => refetchLog({ requestPolicy: 'network-only' }), after);
    return () => clearTimeout(timer);
  }, [deliveries, log.fetching, refetchLog]);

  // A signal's order events are stored with their deliveries before its activity entry tells the
  // screens (live): read again then, the open log shows them, and follows them while they wait.
  useLiveReload(() => {
    if (!paused) refetchLog({ requestPolicy: 'network-only' });
  });

  const reload = () => {
    refetchSettings({ requestPolicy: 'network-only' });
    refetchLog({ requestPolicy: 'network-only' });
  };

  /** Runs one action: its failure shown, the settings and log asked again afterwards. */
  async function run(name: string, action: () => Promise<string | null>) {
    setBusy(name);
    setFailure(null);
    setNotice(null);
    try {
      setNotice(await action());
    } catch (error) {
      setFailure(errorMessage(error));
    } finally {
      setBusy(null);
      reload();
    }
  }

  return {
    notifications: shown,
    settingsError: settings.error !== undefined && !settings.fetching,
    settingsFetching: settings.fetching,
    /** The log could not be read, and none was before. */
    deliveriesError: log.error !== undefined && !log.fetching && deliveries === undefined,
    saveFailed,
    retry: reload,
    deliveries: deliveries as readonly DeliveryItem[] | undefined,
    secret,
    clearSecret: () => setSecret(null),
    failure,
    notice,
    busy,
    async save(choices: NotificationChoice[]) {
      await run('save', async () => {
        // Saved against settings not read (a failed reload), a type saved already would be created again.
        if (!loaded) throw new Error('Cannot load the notification settings.');
        const message = await saveNotifications(loaded, choices, {
          create: async (type: NotificationType, metadata) => {
            const created = await mutate(NotificationCreateDocument, { ...variables, type, metadata });
            if (created.notificationCreate.secret) setSecret(created.notificationCreate.secret);
          },
          update: (key, metadata) => mutate(NotificationUpdateDocument, { key, metadata }),
          remove: (key) => mutate(NotificationDeleteDocument, { key }),
        });
        setSaveFailed(message !== null);
        if (message) throw new Error(message);
        return 'Saved.';
      });
    },
    test: (setting: NotificationItem) =>
      run('test', async () => {
        await mutate(NotificationTestDocument, { key: setting.key });
        return 'Test notification queued: see the deliveries below.';
      }),
    resend: (delivery: DeliveryItem) =>
      run('resend', async () => {
        await mutate(NotificationDeliveryResendDocument, { id: delivery.id });
        return 'Sending again.';
      }),
    rotate: (setting: NotificationItem) =>
      run('rotate', async () => {
        const rotated = await mutate(NotificationSecretRotateDocument, { key: setting.key });
        setSecret(rotated.notificationSecretRotate.secret ?? null);
        return 'New secret made: the previous one keeps signing beside it for 24 hours.';
      }),
  };
}
