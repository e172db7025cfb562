import type { UseFormRegisterReturn } from 'react-hook-form';
import { TextField } from '../../components/text-field.tsx';

/**
 * Switches a second-factor input between the authenticator app's code and a recovery code (the
 * sign-in's second step, and the password reset).
 */
export function SecondFactorSwitch({
  recovery,
  onChange,
  className = 'text-center mt-3',
}: {
  recovery: boolean;
  onChange: (recovery: boolean) => void;
  className?: string;
}) {
  return (
    <div className={className}>
      <button type="button" className="btn btn-link btn-sm" onClick={() => onChange(!recovery)}>
        {recovery ? 'Use your authenticator app' : 'Lost your phone? Use a recovery code'}
      </button>
    </div>
  );
}

/** One of the recovery codes saved when the second factor was set up (`xxxx-xxxx-xxxx`). */
export function RecoveryCodeField({
  registration,
  error,
  label = 'Recovery code',
  hint,
}: {
  registration: UseFormRegisterReturn;
  error?: string | undefined;
  label?: string;
  hint?: string;
}) {
  return (
    <TextField
      label={label}
      hint={hint}
      autoComplete="one-time-code"
      placeholder="xxxx-xxxx-xxxx"
      registration={registration}
      error={error}
    />
  );
}
