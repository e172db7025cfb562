import { Navigate, Outlet, useLocation } from 'react-router';
import { type Access, decide } from '../lib/access.ts';
import { useSession } from '../lib/session.tsx';
import { DelayedSpinner } from './delayed-spinner.tsx';

/** A layout route applying SPEC §2's route guard to its children. */
export function Guard({ access }: { access: Access }) {
  const session = useSession();
  const location = useLocation();
  const decision = decide(access, session, location);
  switch (decision.type) {
    case 'allow':
      return <Outlet />;
    case 'pending':
      return <DelayedSpinner />;
    case 'redirect':
      return <Navigate to={decision.to} replace state={decision.state} />;
    case 'forbidden':
      return <Forbidden onSignOut={session.signOut} />;
  }
}

function Forbidden({ onSignOut }: { onSignOut: () => void }) {
  return (
    <main className="container py-5" role="alert">
      <h1 className="h3">No access</h1>
      <p className="text-secondary">This account has no access to the dashboard.</p>
      <button type="button" className="btn btn-outline-primary" onClick={onSignOut}>
        Sign in as another user
      </button>
    </main>
  );
}
