import { useId } from 'react';
import { CopyButton } from '../../components/copy-button.tsx';

/** A webhook's URL, read-only (selected on focus), with a copy button; `hideLabel` keeps the label for screen readers only. */
export function HookUrlField({
  url,
  label,
  hideLabel = false,
  className = '',
}: {
  url: string;
  label: string;
  hideLabel?: boolean;
  className?: string;
}) {
  const id = useId();
  return (
    <>
      <label className={hideLabel ? 'visually-hidden' : 'form-label small fw-semibold'} htmlFor={id}>
        {label}
      </label>
      <div className={`input-group input-group-sm ${className}`}>
        <input
          id={id}
          className="form-control font-monospace"
          value={url}
          readOnly
          onFocus={(event) => event.currentTarget.select()}
        />
        <CopyButton text={url} label="Copy URL" />
      </div>
    </>
  );
}
