import { useId } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { Link } from 'react-router';
import { TERMS_PATH } from '../../lib/links.ts';

export function TermsCheckbox({ registration, error }: { registration: UseFormRegisterReturn; error?: string }) {
  const id = useId();
  return (
    <div className="form-check mb-3">
      <input
        id={id}
        type="checkbox"
        className={`form-check-input${error ? ' is-invalid' : ''}`}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        {...registration}
      />
      <label className="form-check-label" htmlFor={id}>
        I agree to the{' '}
        <Link to={TERMS_PATH} target="_blank">
          terms of service
        </Link>
      </label>
      {error && (
        <div id={`${id}-error`} className="invalid-feedback">
          {error}
        </div>
      )}
    </div>
  );
}
