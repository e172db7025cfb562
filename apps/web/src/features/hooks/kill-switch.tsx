import { useId, useRef, useState } from 'react';
import { useCall } from '../../lib/call.ts';
import { errorMessage } from '../../lib/error-message.ts';
import { HooksPauseDocument, HooksResumeDocument } from './documents.ts';

/**
 * The kill switch: pauses every webhook of the user with a reason (signals are then refused and
 * logged with it) or resumes them all. `onChanged` reloads the webhook lists.
 */
export function KillSwitch({ onChanged }: { onChanged: () => void }) {
  const id = useId();
  const { mutate } = useCall();
  const [reason, setReason] = useState('');
  const [message, setMessage] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const reasonField = useRef<HTMLInputElement>(null);

  async function run(action: () => Promise<string>) {
    setBusy(true);
    setError(null);
    setMessage(null);
    try {
      setMessage(await action());
      onChanged();
    } catch (failure) {
      setError(errorMessage(failure));
      // Told under the reason and focused there: the pressed button was disabled meanwhile.
      reasonField.current?.focus();
    } finally {
      setBusy(false);
    }
  }
  const plural = (n: number) => `${n} webhook${n === 1 ? '' : 's'}`;

  return (
    <form
      aria-label="Kill switch"
      className="border rounded p-3 d-flex flex-wrap align-items-end gap-2"
      onSubmit={(event) => {
        event.preventDefault();
        void run(async () => `${plural((await mutate(HooksPauseDocument, { reason })).hooksPause)} paused`);
      }}
    >
      <div className="flex-grow-1">
        <label htmlFor={`${id}-reason`} className="form-label small fw-semibold mb-1">
          Pause all webhooks: reason
        </label>
        <input
          ref={reasonField}
          id={`${id}-reason`}
          className={`form-control form-control-sm ${error ? 'is-invalid' : ''}`}
          value={reason}
          maxLength={256}
          placeholder="e.g. FOMC day, strategy under review"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(event) => setReason(event.target.value)}
        />
        {error && (
          <div id={`${id}-error`} className="invalid-feedback d-block" role="alert">
            {error}
          </div>
        )}
      </div>
      <button type="submit" className="btn btn-sm btn-danger" disabled={busy}>
        Pause all webhooks
      </button>
      <button
        type="button"
        className="btn btn-sm btn-outline-secondary"
        disabled={busy}
        onClick={() => void run(async () => `${plural((await mutate(HooksResumeDocument, {})).hooksResume)} resumed`)}
      >
        Resume all webhooks
      </button>
      {message && (
        <span className="small text-secondary w-100" role="status">
          {message}
        </span>
      )}
    </form>
  );
}
