import { CopyButton } from '../../components/copy-button.tsx';

/** A new token's secret: shown this once, with copy-to-clipboard (SPEC §2 Settings). */
export function TokenSecret({ secret, onDone }: { secret: string; onDone: () => void }) {
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
      <p className="small mb-2">
        Copy it now: it is shown only once. Send it as <code>Authorization: Bearer …</code> to call the API.
      </p>
      <button type="button" className="btn btn-sm btn-outline-success" onClick={onDone}>
        Done
      </button>
    </div>
  );
}
