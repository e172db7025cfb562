import { zodResolver } from '@hookform/resolvers/zod';
import { MESSAGES, type SignupForm as SignupValues, signupSchema } from '@router/shared';
import { type Resolver, useForm } from 'react-hook-form';
import { useLocation, useNavigate } from 'react-router';
import type { z } from 'zod';
import { NameEmailFields } from '../../components/name-email-fields.tsx';
import { useCall } from '../../lib/call.ts';
import { SubmitButton } from './auth-card.tsx';
import { SignupDocument } from './documents.ts';
import { AUTH_TEXT, serverMessage } from './messages.ts';
import { NewPasswordFields } from './new-password-fields.tsx';
import { ReferralCodeField } from './referral-code-field.tsx';
import { afterSignupPath, signupParams } from './signup-params.ts';
import { TermsCheckbox } from './terms-checkbox.tsx';
import { usePasswordEstimate } from './use-password-estimate.ts';
import type { ReferralCode } from './use-referral-code.ts';

/** The form holds an unticked box; the schema accepts only a ticked one ('Required'). */
type SignupFields = Omit<z.input<typeof signupSchema>, 'terms'> & { terms: boolean };
const resolver = zodResolver(signupSchema) as unknown as Resolver<SignupFields, unknown, SignupValues>;

/** SPEC §2 Sign-up: names, email, password with strength, confirmation, referral code, terms. */
export function SignupForm({
  referral,
  onError,
}: {
  referral: ReferralCode;
  onError: (message: string | null) => void;
}) {
  const { mutate } = useCall();
  const navigate = useNavigate();
  const { search } = useLocation();
  const { register, handleSubmit, watch, getValues, setError, formState } = useForm<
    SignupFields,
    unknown,
    SignupValues
  >({
    resolver,
    defaultValues: { firstName: '', lastName: '', email: '', password: '', password2: '', terms: false },
  });
  const { errors, isSubmitting } = formState;
  const estimate = usePasswordEstimate(watch('password'));

  // Other fields refused the submission: a weak password is told with them, not one round later.
  const weakWithOthers = async (invalid: { password?: unknown }) => {
    const password = getValues('password');
    if (!invalid.password && password && (await estimate.isWeak(password))) {
      setError('password', { message: MESSAGES.weakPassword });
    }
  };

  const onSubmit = handleSubmit(async ({ email, password, firstName, lastName }) => {
    onError(null);
    if (await estimate.isWeak(password)) {
      setError('password', { message: MESSAGES.weakPassword }, { shouldFocus: true });
      return;
    }
    try {
      const { signup } = await mutate(SignupDocument, {
        type: 'password',
        credentials: { email, password },
        firstName,
        lastName,
        ...signupParams(search, referral.code.trim() || undefined),
      });
      await navigate(afterSignupPath(search, signup.email));
    } catch (error) {
      onError(serverMessage(error, AUTH_TEXT.signupFailed));
    }
  }, weakWithOthers);

  return (
    <form onSubmit={onSubmit} noValidate>
      <NameEmailFields register={register} errors={errors} />
      <NewPasswordFields
        password={register('password')}
        password2={register('password2')}
        score={estimate.score}
        errors={{ password: errors.password?.message, password2: errors.password2?.message }}
      />
      <ReferralCodeField {...referral} />
      <TermsCheckbox registration={register('terms')} error={errors.terms?.message} />
      <SubmitButton busy={isSubmitting}>Create account</SubmitButton>
    </form>
  );
}
