import { zodResolver } from '@hookform/resolvers/zod';
import { passcodeCredentialsSchema } from '@router/shared';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useLocation } from 'react-router';
import type { z } from 'zod';
import { useCall } from '../../lib/call.ts';
import { readIdentityToken, writeIdentityToken } from '../../lib/storage.ts';
import { FormAlert, SubmitButton } from './auth-card.tsx';
import { SigninDocument } from './documents.ts';
import { AUTH_TEXT, serverMessage } from './messages.ts';
import { PasscodeField } from './passcode-field.tsx';
import { useCompleteSignin } from './use-complete-signin.ts';

type Fields = z.input<typeof passcodeCredentialsSchema>;

const isExpired = (error: unknown): boolean =>
  (error as { extensions?: { code?: unknown } } | null)?.extensions?.code === 'UNAUTHENTICATED';

/** The code of a password sign-in's second factor, sent with the identity token as Bearer. */
export function MultifactorForm() {
  const { mutate } = useCall();
  const complete = useCompleteSignin();
  const location = useLocation();
  const [error, setError] = useState<{ message: string; expired: boolean } | null>(null);
  const { register, handleSubmit, setValue, formState } = useForm<
    Fields,
    unknown,
    z.output<typeof passcodeCredentialsSchema>
  >({
    resolver: zodResolver(passcodeCredentialsSchema),
    defaultValues: { passcode: '' },
  });

  const onSubmit = handleSubmit(async (credentials) => {
    setError(null);
    const identity = readIdentityToken();
    try {
      const { signin } = await mutate(
        SigninDocument,
        { type: 'passcode', credentials },
        { fetchOptions: { headers: { Authorization: `Bearer ${identity ?? ''}` } } },
      );
      await complete(signin);
    } catch (failure) {
      const expired = isExpired(failure);
      if (expired) writeIdentityToken(null);
      setError({ message: serverMessage(failure, AUTH_TEXT.passcodeInvalid), expired });
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate>
      {error && (
        <FormAlert>
          <div>{error.message}</div>
          {error.expired && (
            <Link to={`/signin${location.search}`} state={location.state} className="alert-link">
              Sign in again
            </Link>
          )}
        </FormAlert>
      )}
      <p className="text-secondary">Enter the 6-digit code from your authenticator app.</p>
      <PasscodeField
        registration={register('passcode')}
        error={formState.errors.passcode?.message}
        onPasteValue={(value) => setValue('passcode', value, { shouldValidate: formState.isSubmitted })}
      />
      <SubmitButton busy={formState.isSubmitting}>Verify</SubmitButton>
    </form>
  );
}
