import { zodResolver } from '@hookform/resolvers/zod';
import { passcodeCredentialsSchema } from '@router/shared';
import { type ReactNode, useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { PasscodeField } from '../auth/passcode-field.tsx';

type Fields = z.input<typeof passcodeCredentialsSchema>;

/** One 6-digit code, activating the second factor. `onCode` answers an error message, or null when the code was taken. */
export function PasscodeCodeForm({
  submitLabel,
  onCode,
  children,
}: {
  submitLabel: string;
  onCode: (passcode: string) => Promise<string | null>;
  children?: ReactNode;
}) {
  const [error, setError] = useState<string | null>(null);
  const { register, handleSubmit, setValue, formState } = useForm<
    Fields,
    unknown,
    z.output<typeof passcodeCredentialsSchema>
  >({
    resolver: zodResolver(passcodeCredentialsSchema),
    defaultValues: { passcode: '' },
  });

  const onSubmit = handleSubmit(async ({ passcode }) => {
    setError(null);
    setError(await onCode(passcode));
  });

  return (
    <form onSubmit={onSubmit} noValidate style={{ maxWidth: '20rem' }}>
      <PasscodeField
        registration={register('passcode')}
        error={formState.errors.passcode?.message ?? error ?? undefined}
        onPasteValue={(value) => setValue('passcode', value)}
      />
      <div className="d-flex flex-wrap align-items-center gap-3">
        <button type="submit" className="btn btn-primary" disabled={formState.isSubmitting}>
          {submitLabel}
        </button>
        {children}
      </div>
    </form>
  );
}
