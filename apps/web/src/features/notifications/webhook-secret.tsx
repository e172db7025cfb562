import { CopyButton } from '../../components/copy-button.tsx';

/** A webhook setting's new signing secret: shown this once, with copy-to-clipboard. */
export function WebhookSecret({ secret, onDone }: { secret: string; onDone: () => void }) {
  return (
    <div className="alert alert-success" role="status">
      <p className="mb-2 fw-semibold">Webhook signing secret:</p>
      <div className="input-group mb-2">
        <input
          className="form-control font-monospace"
          value={secret}
          readOnly
          aria-label="Webhook signing secret"
          onFocus={(event) => event.currentTarget.select()}
        />
        <CopyButton text={secret} />
      </div>
      <p className="small mb-2">
        Copy it now: it is shown only once. Your receiver checks every webhook's signature with it (see “How to verify
        webhooks” below).
      </p>
      <button type="button" className="btn btn-sm btn-outline-success" onClick={onDone}>
        Done
      </button>
    </div>
  );
}
