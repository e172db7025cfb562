import type { UseFormRegisterReturn } from 'react-hook-form';
import { TextField } from '../../components/text-field.tsx';

/** Whole credits greater than 0 (SPEC §5); register it with `setValueAs: numberValue`. */
export function CreditsField({
  registration,
  error,
  className,
}: {
  registration: UseFormRegisterReturn;
  error: string | undefined;
  className: string;
}) {
  return (
    <TextField
      className={className}
      label="Credits"
      type="number"
      inputMode="numeric"
      min={1}
      step={1}
      registration={registration}
      error={error}
    />
  );
}
