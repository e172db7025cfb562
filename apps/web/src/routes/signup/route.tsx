import { Link, useLocation, useParams } from 'react-router';
import { useFailure } from '../../components/focused-alert.tsx';
import { AuthCard, FormAlert } from '../../features/auth/auth-card.tsx';
import { AUTH_TEXT } from '../../features/auth/messages.ts';
import { SignupForm } from '../../features/auth/signup-form.tsx';
import { signupParams } from '../../features/auth/signup-params.ts';
import { SocialSignin } from '../../features/auth/social-signin.tsx';
import { useReferralCode } from '../../features/auth/use-referral-code.ts';

/** SPEC §2 Sign-up (/signup/{referrer?}); the referral code is filled in from the link. */
export function Component() {
  const { referrer } = useParams();
  const { search } = useLocation();
  const referral = useReferralCode(referrer, search);
  const [error, setError] = useFailure<string>();
  return (
    <AuthCard
      title="Create an account"
      footer={
        <>
          Already have an account? <Link to="/signin">Sign in</Link>
        </>
      }
    >
      {error && <FormAlert key={error.attempt}>{error.value}</FormAlert>}
      <SignupForm onError={setError} referral={referral} />
      <SocialSignin
        onError={setError}
        fallback={AUTH_TEXT.signupFailed}
        signup={signupParams(search, referral.code.trim() || undefined)}
      />
    </AuthCard>
  );
}
