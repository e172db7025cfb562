import { NOTIFICATION_TYPE } from '@router/shared';
import { CHANNEL_NAMES, type NotificationItem, parseMetadata } from './notification-model.ts';

/** Each saved setting: where it goes, whether it is on, a test, and (webhooks) a new secret. */
export function SettingActions({
  notifications,
  busy,
  onTest,
  onRotate,
}: {
  notifications: readonly NotificationItem[];
  busy: string | null;
  onTest: (setting: NotificationItem) => void;
  onRotate: (setting: NotificationItem) => void;
}) {
  const saved = notifications.filter((n) => n.type === NOTIFICATION_TYPE.EMAIL || n.type === NOTIFICATION_TYPE.HOOK);
  if (saved.length === 0) return null;
  return (
    <ul className="list-unstyled mb-3">
      {saved.map((setting) => {
        const channel = CHANNEL_NAMES[setting.type] ?? String(setting.type);
        const metadata = parseMetadata(setting.metadata);
        return (
          <li key={setting.key} className="d-flex flex-wrap align-items-center gap-2 py-1 border-bottom">
            <span className="fw-semibold">{channel}</span>
            <span className="text-break text-secondary small">{metadata.email ?? metadata.url}</span>
            {setting.isEnabled ? (
              <span className="badge text-bg-success">on</span>
            ) : (
              <span className="badge text-bg-danger" title={setting.disabledReason ?? undefined}>
                disabled{setting.disabledReason ? `: ${setting.disabledReason}` : ''}
              </span>
            )}
            <span className="ms-auto d-flex gap-2">
              <button
                type="button"
                className="btn btn-sm btn-outline-secondary"
                disabled={busy !== null}
                onClick={() => onTest(setting)}
                aria-label={`Send test ${channel.toLowerCase()}`}
              >
                Send test
              </button>
              {setting.type === NOTIFICATION_TYPE.HOOK && (
                <button
                  type="button"
                  className="btn btn-sm btn-outline-secondary"
                  disabled={busy !== null}
                  onClick={() => onRotate(setting)}
                >
                  Rotate secret
                </button>
              )}
            </span>
          </li>
        );
      })}
    </ul>
  );
}
