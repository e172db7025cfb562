import type { signinSchema } from '@router/shared';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { EmailField } from '../../components/email-field.tsx';
import { TextField } from '../../components/text-field.tsx';
import { useCall } from '../../lib/call.ts';
import { lazyResolver } from '../../lib/lazy-resolver.ts';
import { SubmitButton } from './auth-card.tsx';
import { SigninDocument } from './documents.ts';
import { AUTH_TEXT, serverMessage } from './messages.ts';
import { useCompleteSignin } from './use-complete-signin.ts';

type SigninFields = z.input<typeof signinSchema>;
type SigninValues = z.output<typeof signinSchema>;

const validation = lazyResolver<SigninFields, SigninValues>(() =>
  import('./signin-resolver.ts').then((m) => m.signinResolver),
);

/** SPEC §2 Sign-in: email and password, both 'Required'; failures go to `onError`. */
export function SigninForm({ onError }: { onError: (message: string | null) => void }) {
  const { mutate } = useCall();
  const complete = useCompleteSignin();
  const { register, handleSubmit, formState } = useForm<SigninFields, unknown, SigninValues>({
    resolver: validation.resolver,
    defaultValues: { email: '', password: '' },
  });
  const { errors, isSubmitting } = formState;

  const onSubmit = handleSubmit(async (credentials) => {
    onError(null);
    try {
      const { signin } = await mutate(SigninDocument, { type: 'password', credentials });
      await complete(signin);
    } catch (error) {
      onError(serverMessage(error, AUTH_TEXT.signinFailed));
    }
  });

  return (
    <form onSubmit={onSubmit} onFocus={validation.preload} noValidate>
      <EmailField autoComplete="username" registration={register('email')} error={errors.email?.message} />
      <TextField
        label="Password"
        type="password"
        autoComplete="current-password"
        registration={register('password')}
        error={errors.password?.message}
      />
      <SubmitButton busy={isSubmitting}>Sign in</SubmitButton>
    </form>
  );
}
