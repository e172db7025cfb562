import { hookNameSchema } from '@router/shared';
import { useId, useState } from 'react';
import { CopyButton } from '../../components/copy-button.tsx';
import { InlineNameForm } from '../../components/inline-name-form.tsx';
import { formatDateTime } from '../../lib/format.ts';
import type { HookItem } from './hook-model.ts';
import { HookRulesForm } from './hook-rules-form.tsx';

/**
 * One webhook: name (renamable), URL with copy, test and state badges, last call, its risk
 * controls (settings), delete.
 */
export function HookRow({
  hook,
  onRename,
  onDelete,
  onChanged,
}: {
  hook: HookItem;
  onRename: (hook: HookItem, name: string) => Promise<string | null>;
  onDelete: (hook: HookItem) => void;
  onChanged?: () => void;
}) {
  const id = useId();
  const [editing, setEditing] = useState(false);
  const [settings, setSettings] = useState(false);
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
            <span className="ms-auto d-flex gap-1">
              <button
                type="button"
                className="btn btn-sm btn-link"
                onClick={() => setSettings((open) => !open)}
                aria-expanded={settings}
                aria-label={`Risk controls of webhook ${hook.name}`}
              >
                Risk controls
              </button>
              <button
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
      <div className="input-group input-group-sm mb-1">
        <label className="visually-hidden" htmlFor={`${id}-url`}>
          Webhook URL of {hook.name}
        </label>
        <input
          id={`${id}-url`}
          className="form-control font-monospace"
          value={hook.url}
          readOnly
          onFocus={(event) => event.currentTarget.select()}
        />
        <CopyButton text={hook.url} label="Copy URL" />
      </div>
      <div className="small text-secondary">
        Last call: {calledAt ? <time dateTime={calledAt.toISOString()}>{formatDateTime(calledAt)}</time> : 'never'}
        {!hook.isActive && ' · Deactivated after the account was disconnected or after repeated invalid requests.'}
        {hook.pausedReason !== null && ` · Paused: ${hook.pausedReason}`}
      </div>
      {settings && <HookRulesForm hook={hook} onSaved={() => onChanged?.()} onClose={() => setSettings(false)} />}
    </li>
  );
}
