import type { ReactNode } from 'react';
import { CopyButton } from '../../components/copy-button.tsx';
import { useFocusWhenShown } from '../../components/focused-alert.tsx';

/**
 * A new token's secret: shown this once, with copy-to-clipboard (SPEC §2 Settings). `label` and
 * `hint` name another kind of secret (a notification webhook's). It takes the focus, selected,
 * ready to copy: the form that asked for it was disabled by the call or is gone.
 */
export function TokenSecret({
  secret,
  onDone,
  label = 'New secret token',
  hint = (
    <>
      Copy it now: it is shown only once. Send it as <code>Authorization: Bearer …</code> to call the API.
    </>
  ),
}: {
  secret: string;
  onDone: () => void;
  label?: string;
  hint?: ReactNode;
}) {
  const field = useFocusWhenShown<HTMLInputElement>();
  return (
    <div className="alert alert-success" role="status">
      <p className="mb-2 fw-semibold">{label}:</p>
      <div className="input-group mb-2">
        <input
          ref={field}
          className="form-control font-monospace"
          value={secret}
          readOnly
          aria-label={label}
          onFocus={(event) => event.currentTarget.select()}
        />
        <CopyButton text={secret} />
      </div>
      <p className="small mb-2">{hint}</p>
      <button type="button" className="btn btn-sm btn-outline-success" onClick={onDone}>
        Done
      </button>
    </div>
  );
}
