import { CopyButton } from '../../components/copy-button.tsx';

/** Ten new recovery codes: shown this once, with copy-to-clipboard. */
export function RecoveryCodeList({ codes }: { codes: readonly string[] }) {
  return (
    <div className="alert alert-warning" role="status">
      <p className="fw-semibold mb-2">Your recovery codes</p>
      <p className="small mb-2">
        Keep them somewhere safe. Each code signs you in once if you lose your authenticator app. They are shown only
        this once.
      </p>
      <ul className="list-unstyled row row-cols-2 g-1 font-monospace mb-2" aria-label="Recovery codes">
        {codes.map((code) => (
          <li key={code} className="col user-select-all">
            {code}
          </li>
        ))}
      </ul>
      <CopyButton text={codes.join('\n')} label="Copy codes" />
    </div>
  );
}
