import type { ReactNode } from 'react';
import { CopyButton } from '../../components/copy-button.tsx';

/** A new secret (API token or client secret): shown this once, with copy-to-clipboard (SPEC §2 Settings). */
export function TokenSecret({
  secret,
  onDone,
  hint = (
    <>
      Send it as <code>Authorization: Bearer …</code> to call the API.
    </>
  ),
}: {
  secret: string;
  onDone: () => void;
  hint?: ReactNode;
}) {
  return (
    <div className="alert alert-success" role="status">
      <p className="mb-2 fw-semibold">New secret token:</p>
      <div className="input-group mb-2">
        <input
          className="form-control font-monospace"
          value={secret}
          readOnly
          aria-label="New secret token"
          onFocus={(event) => event.currentTarget.select()}
        />
        <CopyButton text={secret} />
      </div>
      <p className="small mb-2">Copy it now: it is shown only once. {hint}</p>
      <button type="button" className="btn btn-sm btn-outline-success" onClick={onDone}>
        Done
      </button>
    </div>
  );
}
