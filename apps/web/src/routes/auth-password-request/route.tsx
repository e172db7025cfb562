import { Link } from 'react-router';
import { AuthCard } from '../../features/auth/auth-card.tsx';
import { PasswordRequestForm } from '../../features/auth/password-request-form.tsx';

/** SPEC §2 Password reset request (/auth/password/request). */
export function Component() {
  return (
    <AuthCard title="Forgot your password?" footer={<Link to="/signin">Back to sign in</Link>}>
      <PasswordRequestForm />
    </AuthCard>
  );
}
