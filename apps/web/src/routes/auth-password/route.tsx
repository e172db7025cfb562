import { Link, useSearchParams } from 'react-router';
import { AuthCard, FormAlert } from '../../features/auth/auth-card.tsx';
import { AUTH_TEXT } from '../../features/auth/messages.ts';
import { PasswordResetForm } from '../../features/auth/password-reset-form.tsx';

/** SPEC §2 Password reset (/auth/password?token=…); success goes to /signin. */
export function Component() {
  const [query] = useSearchParams();
  const token = query.get('token');
  return (
    <AuthCard title="Reset password" footer={<Link to="/signin">Back to sign in</Link>}>
      {token ? (
        <PasswordResetForm token={token} />
      ) : (
        <>
          <FormAlert>{AUTH_TEXT.resetFailed}</FormAlert>
          <Link to="/auth/password/request" className="tap-link">
            Request a new link
          </Link>
        </>
      )}
    </AuthCard>
  );
}
