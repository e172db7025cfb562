import type { UseFormRegisterReturn } from 'react-hook-form';
import { TextField } from './text-field.tsx';

/** An email input (SPEC §5: email type), with the email keyboard on phones. */
export function EmailField({
  registration,
  error,
  className,
  autoComplete = 'email',
}: {
  registration: UseFormRegisterReturn;
  error: string | undefined;
  className?: string;
  /** 'username' where it signs in; 'off' where it names another user (admin forms). */
  autoComplete?: 'email' | 'username' | 'off';
}) {
  return (
    <TextField
      className={className}
      label="Email"
      type="email"
      inputMode="email"
      autoComplete={autoComplete}
      registration={registration}
      error={error}
    />
  );
}
