import { hookNameSchema } from '@router/shared';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { InlineNameForm } from '../../components/inline-name-form.tsx';
import { useFocusBack } from '../../components/use-focus-back.ts';
import { formatCount, formatDateTime, formatPercent } from '../../lib/format.ts';
import { deactivationText } from './hook-deactivation.ts';
import type { HookActions, HookItem } from './hook-model.ts';
import { HookRulesForm } from './hook-rules-form.tsx';
import { HookUrlField } from './hook-url-field.tsx';

/**
 * One webhook: name (renamable), URL with copy, test, state, paused and risk-control badges, last
 * call, calls today and error rate; Connect TradingView (the platform panel), its risk controls
 * (settings), delete; a deactivated one says why and can be reactivated.
 */
export function HookRow({
  hook,
  accountConnected,
  actions,
}: {
  hook: HookItem;
  /** False under "Webhooks of accounts no longer connected". */
  accountConnected: boolean;
  actions: HookActions;
}) {
  const { onRename, onDelete, onConnect, onReactivate, onChanged } = actions;
  const id = useId();
  const [editing, setEditing] = useState(false);
  const renameButton = useFocusBack<HTMLButtonElement>(editing);
  const [settings, setSettings] = useState(false);
  const settingsButton = useFocusBack<HTMLButtonElement>(settings);
  const controlled = hook.rules !== '{}';
  const calledAt = hook.calledAt ? new Date(hook.calledAt) : null;
  return (
    <li className="list-group-item px-0 py-3" aria-labelledby={`${id}-name`}>
      <div className="d-flex flex-wrap align-items-center gap-2 mb-2">
        {editing ? (
          <div className="flex-grow-1">
            <InlineNameForm
              initial={hook.name}
              label="Webhook name"
              schema={hookNameSchema}
              onCancel={() => setEditing(false)}
              onSave={async (name) => {
                const failure = await onRename(hook, name);
                if (!failure) setEditing(false);
                return failure;
              }}
            />
          </div>
        ) : (
          <>
            <span id={`${id}-name`} className="fw-semibold text-break">
              {hook.name}
            </span>
            {hook.isTest && (
              <span className="badge text-bg-info" title="Answers with the normalized order; never reaches the broker">
                test
              </span>
            )}
            <span className={`badge ${hook.isActive ? 'text-bg-success' : 'text-bg-secondary'}`}>
              {hook.isActive ? 'active' : 'deactivated'}
            </span>
            {hook.pausedReason !== null && (
              <span className="badge text-bg-warning" title={`Paused: ${hook.pausedReason}`}>
                paused
              </span>
            )}
            {controlled && <span className="badge text-bg-light border">risk controls</span>}
            <span className="ms-auto d-flex flex-wrap gap-1">
              <button
                type="button"
                className="btn btn-sm btn-outline-primary"
                onClick={() => onConnect(hook)}
                aria-label={`Connect TradingView to webhook ${hook.name}`}
              >
                Connect TradingView
              </button>
              <button
                ref={settingsButton}
                type="button"
                className="btn btn-sm btn-link"
                onClick={() => setSettings((open) => !open)}
                aria-expanded={settings}
                aria-label={`Risk controls of webhook ${hook.name}`}
              >
                Risk controls
              </button>
              <button
                ref={renameButton}
                type="button"
                className="btn btn-sm btn-link"
                onClick={() => setEditing(true)}
                aria-label={`Rename webhook ${hook.name}`}
              >
                Rename
              </button>
              <button
                type="button"
                className="btn btn-sm btn-link link-danger"
                onClick={() => onDelete(hook)}
                aria-label={`Delete webhook ${hook.name}`}
              >
                Delete
              </button>
            </span>
          </>
        )}
      </div>
      <HookUrlField url={hook.url} label={`Webhook URL of ${hook.name}`} hideLabel className="mb-1" />
      <div className="small text-secondary d-flex flex-wrap column-gap-3" data-testid="hook-health">
        <span>
          Last call: {calledAt ? <time dateTime={calledAt.toISOString()}>{formatDateTime(calledAt)}</time> : 'never'}
        </span>
        <span>Calls today: {formatCount(hook.health.calls)}</span>
        <span className={hook.health.errorRate ? 'text-danger' : ''}>
          Error rate: {hook.health.errorRate === null ? '–' : formatPercent(hook.health.errorRate)}
        </span>
        {hook.pausedReason !== null && <span>Paused: {hook.pausedReason}</span>}
      </div>
      {settings && <HookRulesForm hook={hook} onSaved={() => onChanged?.()} onClose={() => setSettings(false)} />}
      {!hook.isActive && (
        <div className="alert alert-warning small d-flex flex-wrap align-items-center gap-2 py-2 mt-2 mb-0">
          <span className="flex-grow-1">
            Alerts to this webhook are refused. {deactivationText(hook.deactivatedReason, accountConnected)}{' '}
            <Link to={`/me?hook=${encodeURIComponent(hook.key)}`}>See its last calls</Link>
          </span>
          {accountConnected && (
            <button
              type="button"
              className="btn btn-sm btn-warning"
              onClick={() => onReactivate(hook)}
              aria-label={`Reactivate webhook ${hook.name}`}
            >
              Reactivate
            </button>
          )}
        </div>
      )}
    </li>
  );
}
