import { zodResolver } from '@hookform/resolvers/zod';
import { type PasswordChangeForm as Fields, MESSAGES, passwordChangeSchema } from '@router/shared';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { type FormOutcome, FormResult } from '../../components/form-outcome.tsx';
import { TextField } from '../../components/text-field.tsx';
import { useCall } from '../../lib/call.ts';
import { errorMessage } from '../../lib/error-message.ts';
import { NewPasswordFields } from '../auth/new-password-fields.tsx';
import { usePasswordEstimate } from '../auth/use-password-estimate.ts';
import { PasswordUpdateDocument } from '../user/documents.ts';

export const PASSWORD_CHANGED = 'Password changed. You were signed out on your other devices.';

const FIELDS = ['password', 'newPassword', 'newPassword2'] as const;

/** Settings' password change: the current password, then the new one (SPEC §5 strength rule). */
export function PasswordChangeForm() {
  const { mutate } = useCall();
  const [result, setResult] = useState<FormOutcome | null>(null);
  const { register, handleSubmit, watch, getValues, setError, reset, formState } = useForm<Fields>({
    resolver: zodResolver(passwordChangeSchema),
    defaultValues: { password: '', newPassword: '', newPassword2: '' },
  });
  const { errors, isSubmitting } = formState;
  const estimate = usePasswordEstimate(watch('newPassword'));

  const onSubmit = handleSubmit(
    async (values) => {
      setResult(null);
      if (await estimate.isWeak(values.newPassword)) {
        setError('newPassword', { message: MESSAGES.weakPassword }, { shouldFocus: true });
        return;
      }
      try {
        await mutate(PasswordUpdateDocument, values);
        reset();
        setResult({ ok: true, text: PASSWORD_CHANGED });
      } catch (error) {
        const field = (error as { extensions?: { field?: unknown } } | null)?.extensions?.field;
        const known = FIELDS.find((name) => name === field);
        if (known) setError(known, { message: errorMessage(error) }, { shouldFocus: true });
        else setResult({ ok: false, text: errorMessage(error) });
      }
    },
    // Refused by its own fields: the last outcome spoke of other values, and a weak password is
    // told with them, not one round later.
    async (invalid) => {
      setResult(null);
      const password = getValues('newPassword');
      if (!invalid.newPassword && password && (await estimate.isWeak(password))) {
        setError('newPassword', { message: MESSAGES.weakPassword });
      }
    },
  );

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Password" style={{ maxWidth: '28rem' }}>
      <TextField
        label="Current password"
        type="password"
        autoComplete="current-password"
        registration={register('password')}
        error={errors.password?.message}
      />
      <NewPasswordFields
        password={register('newPassword')}
        password2={register('newPassword2')}
        score={estimate.score}
        errors={{ password: errors.newPassword?.message, password2: errors.newPassword2?.message }}
        labels={{ password: 'New password', password2: 'New password confirmation' }}
      />
      <div className="d-flex align-items-center gap-3">
        <button type="submit" className="btn btn-primary" disabled={isSubmitting}>
          Change password
        </button>
        <FormResult outcome={result} />
      </div>
    </form>
  );
}
