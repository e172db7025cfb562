import { Link } from 'react-router';
import { AuthCard } from '../../features/auth/auth-card.tsx';
import { AUTH_TEXT } from '../../features/auth/messages.ts';

/** SPEC §2 Signup success (signed-in users are sent on by the guard). */
export function Component() {
  return (
    <AuthCard title="Registration complete">
      <p className="text-center">{AUTH_TEXT.signupThanks}</p>
      <div className="text-center">
        <Link to="/signin" className="btn btn-outline-primary">
          Go to sign in
        </Link>
      </div>
    </AuthCard>
  );
}
