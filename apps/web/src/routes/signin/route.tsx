import { Link, useLocation } from 'react-router';
import { useFailure } from '../../components/focused-alert.tsx';
import { AuthCard, FormAlert } from '../../features/auth/auth-card.tsx';
import { AUTH_TEXT } from '../../features/auth/messages.ts';
import { SigninForm } from '../../features/auth/signin-form.tsx';
import { SocialSignin } from '../../features/auth/social-signin.tsx';

export const RESET_REQUEST_PATH = '/auth/password/request';

/** SPEC §2 Sign-in: password form, social buttons when configured, links to reset and sign-up. */
export function Component() {
  const [error, setError] = useFailure<string>();
  const notice = noticeOf(useLocation().state);
  return (
    <AuthCard
      title="Sign in"
      footer={
        <>
          New here? <Link to="/signup">Create an account</Link>
        </>
      }
    >
      {notice && !error && <FormAlert variant="success">{notice}</FormAlert>}
      {error && (
        <FormAlert key={error.attempt}>
          <div>{error.value}</div>
          <Link to={RESET_REQUEST_PATH} className="alert-link tap-link">
            Forgot your password?
          </Link>
        </FormAlert>
      )}
      <SigninForm onError={setError} />
      <div className="text-center mt-3">
        <Link to={RESET_REQUEST_PATH} className="small tap-link">
          Forgot your password?
        </Link>
      </div>
      <SocialSignin onError={setError} fallback={AUTH_TEXT.signinFailed} />
    </AuthCard>
  );
}

/** A message another screen left for this one (the password reset's success). */
function noticeOf(state: unknown): string | null {
  const notice = (state as { notice?: unknown } | null)?.notice;
  return typeof notice === 'string' ? notice : null;
}
