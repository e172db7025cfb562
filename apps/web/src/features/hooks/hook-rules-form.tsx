import { useId, useRef, useState } from 'react';
import { cancelOnEscape } from '../../components/cancel-on-escape.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { useCall } from '../../lib/call.ts';
import { errorMessage } from '../../lib/error-message.ts';
import { HookRulesDocument } from './documents.ts';
import type { HookItem } from './hook-model.ts';
import { QueuedSignals } from './queued-signals.tsx';

/** What the editor offers when a webhook has no controls yet (each key is optional). */
const EXAMPLE = `{
  "maxLagSeconds": 30,
  "sourceAddresses": ["tradingview"],
  "symbols": ["AAPL", "BTC/USD"],
  "symbolMap": { "BTCUSD": "BTC/USD" },
  "maxQuantity": 10,
  "maxNotional": 5000,
  "maxOrdersPerMinute": 5,
  "maxOrdersPerDay": 50,
  "dayTimeZone": "America/New_York",
  "tradingWindows": [{ "days": ["mon", "tue", "wed", "thu", "fri"], "from": "09:30", "to": "16:00", "timeZone": "America/New_York" }],
  "outsideWindow": "refuse"
}`;

const pretty = (rules: string): string => {
  try {
    const value: unknown = JSON.parse(rules);
    return value && typeof value === 'object' && Object.keys(value).length > 0 ? JSON.stringify(value, null, 2) : '';
  } catch {
    return rules;
  }
};

/**
 * A webhook's risk controls as one JSON object, saved whole: the server refuses invalid settings
 * with `key: reason` and changes nothing. Empty removes every control. Escape is Close (unsaved).
 */
export function HookRulesForm({
  hook,
  onSaved,
  onClose,
}: {
  hook: HookItem;
  onSaved: () => void;
  onClose: () => void;
}) {
  const id = useId();
  const { mutate } = useCall();
  const [text, setText] = useState(() => pretty(hook.rules));
  const editor = useRef<HTMLTextAreaElement>(null);
  // What the editor holds now, read when a save answers (the save's own closure has the text sent).
  const typed = useRef(text);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const [busy, setBusy] = useState(false);
  // Saving no controls over existing ones removes every limit of the webhook: asked first.
  const [confirming, setConfirming] = useState(false);

  async function save() {
    setConfirming(false);
    setBusy(true);
    setError(null);
    setSaved(false);
    const sent = text;
    try {
      const answer = await mutate(HookRulesDocument, { key: hook.key, rules: sent.trim() || '{}' });
      // Edits typed while the save was in flight stay, unsaved (no "Saved" beside them): only an
      // untouched editor takes the server's formatting of what it saved.
      if (typed.current === sent) {
        typed.current = pretty(answer.hookUpdate.rules);
        setText(typed.current);
        setSaved(true);
      }
      onSaved();
    } catch (failure) {
      setError(errorMessage(failure));
      // The refusal is the controls' own: told with them, focused (Save was disabled meanwhile).
      editor.current?.focus();
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      aria-label={`Risk controls of ${hook.name}`}
      className="border rounded p-2 mt-2 bg-body-tertiary"
      onSubmit={(event) => {
        event.preventDefault();
        if (pretty(text.trim() || '{}') === '' && pretty(hook.rules) !== '') setConfirming(true);
        else void save();
      }}
      onKeyDown={cancelOnEscape(onClose)}
    >
      <label htmlFor={`${id}-rules`} className="form-label small fw-semibold mb-1">
        Risk controls (JSON)
      </label>
      <textarea
        ref={editor}
        id={`${id}-rules`}
        className={`form-control form-control-sm font-monospace ${error ? 'is-invalid' : ''}`}
        rows={Math.min(16, Math.max(6, text.split('\n').length + 1))}
        value={text}
        placeholder={EXAMPLE}
        spellCheck={false}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error ${id}-help` : `${id}-help`}
        onChange={(event) => {
          typed.current = event.target.value;
          setText(event.target.value);
          setSaved(false);
        }}
      />
      {error && (
        <div id={`${id}-error`} className="invalid-feedback d-block" role="alert">
          {error}
        </div>
      )}
      <div id={`${id}-help`} className="form-text">
        Signals breaking a control are refused and logged with the control's name. Empty: no controls. Keys:
        maxLagSeconds, sourceAddresses, symbols, symbolMap, maxQuantity, maxNotional, maxPosition, maxOrdersPerMinute,
        maxOrdersPerDay, dayTimeZone and dayStartsAt (the day maxOrdersPerDay counts; midnight UTC without them),
        tradingWindows, outsideWindow, fanOut (see the documentation).
      </div>
      <div className="d-flex align-items-center gap-2 mt-2">
        <button type="submit" className="btn btn-sm btn-primary" disabled={busy}>
          Save controls
        </button>
        <button type="button" className="btn btn-sm btn-link" onClick={onClose}>
          Close
        </button>
        {saved && (
          <span className="small text-success" role="status">
            Saved
          </span>
        )}
      </div>
      <QueuedSignals hookKey={hook.key} />
      <ConfirmDialog
        show={confirming}
        title="Remove all risk controls?"
        confirmLabel="Remove all controls"
        busy={busy}
        onConfirm={() => void save()}
        onClose={() => setConfirming(false)}
      >
        Every limit of {hook.name} goes: its signals are no longer checked against any control.
      </ConfirmDialog>
    </form>
  );
}
