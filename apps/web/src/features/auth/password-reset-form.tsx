import { zodResolver } from '@hookform/resolvers/zod';
import { MESSAGES, passwordResetSchema } from '@router/shared';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import type { z } from 'zod';
import { useFailure } from '../../components/focused-alert.tsx';
import { useCall } from '../../lib/call.ts';
import { useSession } from '../../lib/session.tsx';
import { FormAlert, SubmitButton } from './auth-card.tsx';
import { PasswordResetDocument } from './documents.ts';
import { AUTH_TEXT, serverMessage } from './messages.ts';
import { NewPasswordFields } from './new-password-fields.tsx';
import { PasscodeField } from './passcode-field.tsx';
import { RecoveryCodeField, SecondFactorSwitch } from './second-factor-switch.tsx';
import { usePasswordEstimate } from './use-password-estimate.ts';

type Fields = z.input<typeof passwordResetSchema>;

export const RESET_DONE_NOTICE = 'Your password has been changed, please sign in.';

/**
 * SPEC §2 Password reset: new password, confirmation and the optional second-factor code: the
 * authenticator's, or (after the switch, as at sign-in) a recovery code, sent as `passcode`.
 */
export function PasswordResetForm({ token }: { token: string }) {
  const { mutate } = useCall();
  const navigate = useNavigate();
  const session = useSession();
  const [failure, setFailure] = useFailure<string>();
  const [recovery, setRecovery] = useState(false);
  const { register, handleSubmit, watch, getValues, setError, setValue, clearErrors, formState } = useForm<
    Fields,
    unknown,
    z.output<typeof passwordResetSchema>
  >({
    resolver: zodResolver(passwordResetSchema),
    defaultValues: { token, password: '', password2: '', passcode: '' },
  });
  const { errors, isSubmitting } = formState;
  const estimate = usePasswordEstimate(watch('password'));

  // The one `passcode` input takes either code; what was typed for the other kind is dropped.
  function switchFactor(next: boolean) {
    setRecovery(next);
    setValue('passcode', '');
    clearErrors('passcode');
  }

  // Other fields refused the submission: a weak password is told with them, not one round later.
  const weakWithOthers = async (invalid: { password?: unknown }) => {
    const password = getValues('password');
    if (!invalid.password && password && (await estimate.isWeak(password))) {
      setError('password', { message: MESSAGES.weakPassword });
    }
  };

  const onSubmit = handleSubmit(async (values) => {
    setFailure(null);
    if (await estimate.isWeak(values.password)) {
      setError('password', { message: MESSAGES.weakPassword }, { shouldFocus: true });
      return;
    }
    try {
      await mutate(PasswordResetDocument, values);
      // The reset ended every session of its user: if this browser was signed in as them, its
      // token is dead now, and /signin (guests only) would send it on to /me and lose the notice.
      if (session.isAuthenticated) await session.reload();
      await navigate('/signin', { replace: true, state: { notice: RESET_DONE_NOTICE } });
    } catch (error) {
      const detail = serverMessage(error, AUTH_TEXT.resetFailed);
      setFailure(detail === AUTH_TEXT.resetFailed ? detail : `${AUTH_TEXT.resetFailed}: ${detail}`);
    }
  }, weakWithOthers);

  return (
    <form onSubmit={onSubmit} noValidate>
      {failure && <FormAlert key={failure.attempt}>{failure.value}</FormAlert>}
      <NewPasswordFields
        password={register('password')}
        password2={register('password2')}
        score={estimate.score}
        errors={{ password: errors.password?.message, password2: errors.password2?.message }}
      />
      {recovery ? (
        <RecoveryCodeField
          label="Recovery code (optional)"
          hint={AUTH_TEXT.passcodeHint}
          registration={register('passcode')}
          error={errors.passcode?.message}
        />
      ) : (
        <PasscodeField
          label="Two-factor code (optional)"
          hint={AUTH_TEXT.passcodeHint}
          optional
          registration={register('passcode')}
          error={errors.passcode?.message}
          onPasteValue={(value) => setValue('passcode', value)}
        />
      )}
      <SecondFactorSwitch recovery={recovery} onChange={switchFactor} className="mb-3" />
      <SubmitButton busy={isSubmitting}>Set new password</SubmitButton>
    </form>
  );
}
