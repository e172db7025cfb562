import { Link, useSearchParams } from 'react-router';
import { AuthCard } from '../../features/auth/auth-card.tsx';
import { safePath } from '../../features/auth/redirects.ts';
import { HOME } from '../../lib/access.ts';
import { useSession } from '../../lib/session.tsx';

/**
 * SPEC §2 recall screen, reached after a sign-in whose result has an email (its content is not
 * shown by SPEC): a short welcome naming the account, then on to the originating page or /me.
 */
export function Component() {
  const { user } = useSession();
  const [query] = useSearchParams();
  const next = safePath(query.get('from')) ?? HOME;
  return (
    <AuthCard title="Welcome back">
      <p className="text-center">
        Welcome back, <strong>{user?.email}</strong>
      </p>
      <div className="text-center">
        <Link to={next} className="btn btn-primary">
          Continue
        </Link>
      </div>
    </AuthCard>
  );
}
