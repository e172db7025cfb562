import { zodResolver } from '@hookform/resolvers/zod';
import { secondFactorCodeSchema } from '@router/shared';
import { type ReactNode, useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { cancelOnEscape } from '../../components/cancel-on-escape.ts';
import { TextField } from '../../components/text-field.tsx';

const schema = z.object({ code: secondFactorCodeSchema });
type Fields = z.input<typeof schema>;

/**
 * A code of the authenticator app or a recovery code: what turning the factor off or getting new
 * recovery codes asks for. `onCode` answers an error message, or null when the code was taken.
 * It opens at the user's asking: its field takes focus, and Escape is `onCancel` (its Cancel).
 */
export function SecondFactorCodeForm({
  submitLabel,
  variant = 'primary',
  onCode,
  onCancel,
  children,
}: {
  submitLabel: string;
  variant?: 'primary' | 'outline-danger';
  onCode: (code: string) => Promise<string | null>;
  onCancel: () => void;
  children?: ReactNode;
}) {
  const [error, setError] = useState<string | null>(null);
  const { register, handleSubmit, formState } = useForm<Fields, unknown, z.output<typeof schema>>({
    resolver: zodResolver(schema),
    defaultValues: { code: '' },
  });

  const onSubmit = handleSubmit(async ({ code }) => {
    setError(null);
    setError(await onCode(code));
  });

  return (
    <form onSubmit={onSubmit} noValidate style={{ maxWidth: '22rem' }} onKeyDown={cancelOnEscape(onCancel)}>
      <TextField
        label="Authenticator or recovery code"
        autoComplete="one-time-code"
        autoFocus
        registration={register('code')}
        error={formState.errors.code?.message ?? error ?? undefined}
      />
      <div className="d-flex flex-wrap align-items-center gap-3">
        <button type="submit" className={`btn btn-${variant}`} disabled={formState.isSubmitting}>
          {submitLabel}
        </button>
        {children}
      </div>
    </form>
  );
}
