import { zodResolver } from '@hookform/resolvers/zod';
import { passcodeCredentialsSchema, recoveryCredentialsSchema } from '@router/shared';
import { useForm } from 'react-hook-form';
import { Link, useLocation } from 'react-router';
import type { z } from 'zod';
import { useFailure } from '../../components/focused-alert.tsx';
import { useCall } from '../../lib/call.ts';
import { readIdentityToken, writeIdentityToken } from '../../lib/storage.ts';
import { FormAlert, SubmitButton } from './auth-card.tsx';
import { SigninDocument } from './documents.ts';
import { AUTH_TEXT, serverMessage } from './messages.ts';
import { PasscodeField } from './passcode-field.tsx';
import { RecoveryCodeField } from './second-factor-switch.tsx';
import { useCompleteSignin } from './use-complete-signin.ts';

type Fields = { passcode: string } | { code: string };

const isExpired = (error: unknown): boolean =>
  (error as { extensions?: { code?: unknown } } | null)?.extensions?.code === 'UNAUTHENTICATED';

export const RECOVERY_CODE_INVALID = 'The recovery code is not valid';

/**
 * The second factor of a password sign-in, sent with the identity token as Bearer: the 6-digit
 * code of the authenticator app, or (`recovery`) one of the user's recovery codes, whose sign-in
 * leads to the recall screen (SPEC §4: its result carries the email).
 */
export function MultifactorForm({ recovery = false }: { recovery?: boolean }) {
  const { mutate } = useCall();
  const complete = useCompleteSignin();
  const location = useLocation();
  const [error, setError] = useFailure<{ message: string; expired: boolean }>();
  const schema = recovery ? recoveryCredentialsSchema : passcodeCredentialsSchema;
  const { register, handleSubmit, setValue, formState } = useForm<Fields, unknown, z.output<typeof schema>>({
    resolver: zodResolver(schema),
    defaultValues: recovery ? { code: '' } : { passcode: '' },
  });
  const errors = formState.errors as Partial<Record<'passcode' | 'code', { message?: string }>>;

  const onSubmit = handleSubmit(async (credentials) => {
    setError(null);
    const identity = readIdentityToken();
    try {
      const { signin } = await mutate(
        SigninDocument,
        { type: recovery ? 'recovery' : 'passcode', credentials },
        { fetchOptions: { headers: { Authorization: `Bearer ${identity ?? ''}` } } },
      );
      await complete(signin);
    } catch (failure) {
      const expired = isExpired(failure);
      if (expired) writeIdentityToken(null);
      const fallback = recovery ? RECOVERY_CODE_INVALID : AUTH_TEXT.passcodeInvalid;
      setError({ message: serverMessage(failure, fallback), expired });
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate>
      {error && (
        <FormAlert key={error.attempt}>
          <div>{error.value.message}</div>
          {error.value.expired && (
            <Link to={`/signin${location.search}`} state={location.state} className="alert-link">
              Sign in again
            </Link>
          )}
        </FormAlert>
      )}
      {recovery ? (
        <>
          <p className="text-secondary">
            Enter one of the recovery codes you saved when you set up two-factor sign-in.
          </p>
          <RecoveryCodeField registration={register('code')} error={errors.code?.message} />
        </>
      ) : (
        <>
          <p className="text-secondary">Enter the 6-digit code from your authenticator app.</p>
          <PasscodeField
            registration={register('passcode')}
            error={errors.passcode?.message}
            onPasteValue={(value) => setValue('passcode', value, { shouldValidate: formState.isSubmitted })}
          />
        </>
      )}
      <SubmitButton busy={formState.isSubmitting}>Verify</SubmitButton>
    </form>
  );
}
