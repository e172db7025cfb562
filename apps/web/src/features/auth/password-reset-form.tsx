import { zodResolver } from '@hookform/resolvers/zod';
import { MESSAGES, PASSWORD_MIN_SCORE, passwordResetSchema } from '@router/shared';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import type { z } from 'zod';
import { useCall } from '../../lib/call.ts';
import { FormAlert, SubmitButton } from './auth-card.tsx';
import { PasswordResetDocument } from './documents.ts';
import { AUTH_TEXT, serverMessage } from './messages.ts';
import { NewPasswordFields } from './new-password-fields.tsx';
import { PasscodeField } from './passcode-field.tsx';
import { usePasswordEstimate } from './use-password-estimate.ts';

type Fields = z.input<typeof passwordResetSchema>;

export const RESET_DONE_NOTICE = 'Your password has been changed, please sign in.';

/** SPEC §2 Password reset: new password, confirmation and the optional second-factor code. */
export function PasswordResetForm({ token }: { token: string }) {
  const { mutate } = useCall();
  const navigate = useNavigate();
  const [failure, setFailure] = useState<string | null>(null);
  const { register, handleSubmit, watch, setError, setValue, formState } = useForm<
    Fields,
    unknown,
    z.output<typeof passwordResetSchema>
  >({
    resolver: zodResolver(passwordResetSchema),
    defaultValues: { token, password: '', password2: '', passcode: '' },
  });
  const { errors, isSubmitting } = formState;
  const estimate = usePasswordEstimate(watch('password'));

  const onSubmit = handleSubmit(async (values) => {
    setFailure(null);
    const score = await estimate.scoreNow(values.password);
    if (score !== null && score <= PASSWORD_MIN_SCORE) {
      setError('password', { message: MESSAGES.weakPassword }, { shouldFocus: true });
      return;
    }
    try {
      await mutate(PasswordResetDocument, values);
      await navigate('/signin', { replace: true, state: { notice: RESET_DONE_NOTICE } });
    } catch (error) {
      const detail = serverMessage(error, AUTH_TEXT.resetFailed);
      setFailure(detail === AUTH_TEXT.resetFailed ? detail : `${AUTH_TEXT.resetFailed}: ${detail}`);
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate>
      {failure && <FormAlert>{failure}</FormAlert>}
      <NewPasswordFields
        password={register('password')}
        password2={register('password2')}
        score={estimate.score}
        errors={{ password: errors.password?.message, password2: errors.password2?.message }}
      />
      <PasscodeField
        label="Two-factor code (optional)"
        hint={AUTH_TEXT.passcodeHint}
        optional
        registration={register('passcode')}
        error={errors.passcode?.message}
        onPasteValue={(value) => setValue('passcode', value)}
      />
      <SubmitButton busy={isSubmitting}>Set new password</SubmitButton>
    </form>
  );
}
