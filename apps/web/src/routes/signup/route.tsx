import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { AuthCard, FormAlert } from '../../features/auth/auth-card.tsx';
import { AUTH_TEXT } from '../../features/auth/messages.ts';
import { SignupForm } from '../../features/auth/signup-form.tsx';
import { SocialSignin } from '../../features/auth/social-signin.tsx';

/** SPEC §2 Sign-up (/signup/{referrer?}). */
export function Component() {
  const { referrer } = useParams();
  const [error, setError] = useState<string | null>(null);
  return (
    <AuthCard
      title="Create an account"
      footer={
        <>
          Already have an account? <Link to="/signin">Sign in</Link>
        </>
      }
    >
      {error && <FormAlert>{error}</FormAlert>}
      <SignupForm onError={setError} {...(referrer ? { referrer } : {})} />
      <SocialSignin onError={setError} fallback={AUTH_TEXT.signupFailed} />
    </AuthCard>
  );
}
