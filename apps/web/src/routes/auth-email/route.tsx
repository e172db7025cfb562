import { Link, useSearchParams } from 'react-router';
import { DelayedSpinner } from '../../components/delayed-spinner.tsx';
import { AuthCard, FormAlert } from '../../features/auth/auth-card.tsx';
import { AUTH_TEXT } from '../../features/auth/messages.ts';
import { useEmailConfirm } from '../../features/auth/use-email-confirm.ts';

/** SPEC §2 Email confirmation (/auth/email?token=…): confirms, then signs in. */
export function Component() {
  const [query] = useSearchParams();
  const state = useEmailConfirm(query.get('token'));
  return (
    <AuthCard title="Email confirmation">
      {state.status === 'pending' && <DelayedSpinner />}
      {state.status === 'failed' && (
        <>
          <FormAlert>{AUTH_TEXT.confirmFailed}</FormAlert>
          <Link to="/signin">Go to sign in</Link>
        </>
      )}
      {state.status === 'confirmed' && (
        <>
          <FormAlert variant="success">{AUTH_TEXT.confirmed}</FormAlert>
          <div className="text-center">
            {state.secondFactor ? (
              <Link to="/signin/multifactor" className="btn btn-primary">
                Enter your verification code
              </Link>
            ) : (
              <Link to="/me" className="btn btn-primary">
                Go to the dashboard
              </Link>
            )}
          </div>
        </>
      )}
    </AuthCard>
  );
}
