import { Link, useSearchParams } from 'react-router';
import { useQuery } from 'urql';
import { AuthCard } from '../../features/auth/auth-card.tsx';
import { safePath } from '../../features/auth/redirects.ts';
import { PasscodeDocument } from '../../features/user/documents.ts';
import { HOME } from '../../lib/access.ts';
import { useSession } from '../../lib/session.tsx';

/**
 * SPEC §2 recall screen, reached after a sign-in whose result has an email (SPEC §4): a sign-in
 * with a recovery code. It names the account, tells how many codes are left and leads to new
 * ones (or to a new authenticator), then on to the originating page or /me.
 */
export function Component() {
  const { user } = useSession();
  const [query] = useSearchParams();
  const next = safePath(query.get('from')) ?? HOME;
  const [{ data }] = useQuery({ query: PasscodeDocument, requestPolicy: 'network-only' });
  const left = data?.userPasscode.recoveryCodesLeft;
  return (
    <AuthCard title="Signed in with a recovery code">
      <p className="text-center">
        Welcome back, <strong>{user?.email}</strong>.
      </p>
      <p className="text-center">
        That code is used up.{' '}
        {left !== undefined && (
          <span className={left <= 3 ? 'text-danger' : undefined}>
            {left === 1 ? '1 recovery code is left.' : `${left} recovery codes are left.`}
          </span>
        )}
      </p>
      <p className="text-center text-secondary small">
        Lost your authenticator app? Get new recovery codes, or turn two-factor authentication off and set it up again
        on your new phone.
      </p>
      <div className="d-flex flex-wrap justify-content-center gap-2">
        <Link to="/me/settings#two-factor" className="btn btn-outline-primary">
          Two-factor settings
        </Link>
        <Link to={next} className="btn btn-primary">
          Continue
        </Link>
      </div>
    </AuthCard>
  );
}
